import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, type DemoWindow } from './support/chat.ts';

const CUT_NOTE = 'The answer was cut at the length limit.';

test('an answer cut at the length limit is marked as cut, and still when a reload restores the session', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/length');
  await widget.waitForIdle();
  await expect(widget.assistantMessages).toHaveCount(1);
  await expect(widget.assistantMessages.first()).toContainText('as a model does when it reaches its output');
  await expect(widget.assistantMessages.first().locator('.message-note')).toHaveText(CUT_NOTE);
  const { sessionId } = await readState(page);
  expect(sessionId).not.toBe(null);

  // After a reload the product restores the session: the transcript comes from the server's messages.
  await page.reload();
  await openDemo(page);
  await page.evaluate((id) => (window as DemoWindow).agentChatDemo?.inline.client.restore(id), sessionId);
  await expect(widget.assistantMessages).toHaveCount(1);
  await expect(widget.assistantMessages.first().locator('.message-note')).toHaveText(CUT_NOTE);
});
