import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, type ChatDriver, type DemoWindow } from './support/chat.ts';

/** Opens the demo in `page` on the conversation `sessionId` (as the conversations sheet or a duplicated tab would). */
async function openOn(page: Page, sessionId: string): Promise<ChatDriver> {
  await openDemo(page);
  await page.evaluate((id) => (window as DemoWindow).agentChatDemo?.inline.client.restore(id), sessionId);
  return chat(page);
}

test('two tabs on one conversation: a send, its stream, Stop and an approval show in both', async ({
  page,
  context,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const first = chat(page);
  await first.send('/echo Hello from the first tab');
  await first.waitForIdle();
  const { sessionId } = await readState(page);
  const otherPage = await context.newPage();
  const second = await openOn(otherPage, sessionId ?? '');
  await expect(second.userMessages).toHaveText(['You /echo Hello from the first tab']);

  // A send in one tab appears in the other, and both stream the same run live; Stop in the other stops it.
  await first.send('/slow');
  await expect(second.userMessages.last()).toContainText('/slow');
  await expect(second.assistantMessages.last()).not.toHaveText('');
  const streamedRun = (await readState(otherPage)).run?.runId;
  expect(streamedRun).toBe((await readState(page)).run?.runId);
  await second.stopButton.click();
  await first.waitForIdle();
  await second.waitForIdle();
  expect((await readState(page)).run?.status).toBe('cancelled');

  // An approval answered in one tab closes the card in the other.
  await second.send('/approval');
  await expect(first.approvalCards).toHaveCount(1);
  await expect(second.approvalCards).toHaveCount(1);
  await first.approvalCards.locator('[part~="deny-button"]').click();
  await expect(second.approvalCards).toHaveCount(0);
  await second.waitForIdle();
  await first.waitForIdle();
  await expect(second.assistantMessages.last()).toHaveText(/Understood: I did not delete/);
  await expect(first.assistantMessages.last()).toHaveText(/Understood: I did not delete/);
  await expect(first.userMessages).toHaveText(await second.userMessages.allTextContents());
  await otherPage.close();
});

test('a tab the channel does not reach catches up with its session when it comes back into view', async ({
  page,
  browser,
  context,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const first = chat(page);
  await first.send('/echo one');
  await first.waitForIdle();
  const { sessionId } = await readState(page);
  // Another browser of the same user (its cookies, none of its tabs): no BroadcastChannel reaches it.
  const elsewhere = await browser.newContext({ storageState: await context.storageState() });
  const otherPage = await elsewhere.newPage();
  const second = await openOn(otherPage, sessionId ?? '');
  await expect(second.userMessages).toHaveCount(1);
  await otherPage.evaluate(() => (window as DemoWindow).agentChatDemo?.inline.client.setVisibility(false));

  await first.send('/slow');
  await expect(first.stopButton).toBeVisible();
  await otherPage.evaluate(() => (window as DemoWindow).agentChatDemo?.inline.client.setVisibility(true));
  await expect(second.userMessages.last()).toContainText('/slow');
  await expect(second.stopButton).toBeVisible();
  await first.stopButton.click();
  await second.waitForIdle();
  await elsewhere.close();
});
