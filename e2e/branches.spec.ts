import type { Locator } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, waitForDemo } from './support/chat.ts';

/** The "n / m" between a turn's versions, under its answer. */
const versionOf = (answer: Locator) => answer.locator('.turn-versions > span');

test('regenerate twice, move between the three versions, send on the second, edit the first question, and a reload keeps the branch', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  for (const text of ['/echo One', '/echo Two', '/echo Three']) {
    await widget.send(text);
    await widget.waitForIdle();
  }
  await expect(widget.userMessages).toHaveText(['You /echo One', 'You /echo Two', 'You /echo Three']);

  // Regenerate the second answer twice: each time a new version of that turn, and the turn after it leaves the screen.
  const second = widget.assistantMessages.nth(1);
  for (const count of [2, 3]) {
    await second.hover();
    await second.getByRole('button', { name: 'Regenerate' }).click();
    await expect(versionOf(second)).toHaveText(`${count} / ${count}`);
    await widget.waitForIdle();
    await expect(widget.userMessages).toHaveText(['You /echo One', 'You /echo Two']);
  }

  // Back to the first version: its branch returns with the third turn; then forward to the second.
  await second.hover();
  await second.getByRole('button', { name: 'Previous version' }).click();
  await expect(versionOf(second)).toHaveText('2 / 3');
  await expect(second.getByRole('button', { name: 'Previous version' })).toBeEnabled();
  await second.getByRole('button', { name: 'Previous version' }).click();
  await expect(versionOf(second)).toHaveText('1 / 3');
  await expect(widget.userMessages).toHaveText(['You /echo One', 'You /echo Two', 'You /echo Three']);
  await expect(second.getByRole('button', { name: 'Previous version' })).toBeDisabled();
  await second.getByRole('button', { name: 'Next version' }).click();
  await expect(versionOf(second)).toHaveText('2 / 3');
  await expect(widget.userMessages).toHaveText(['You /echo One', 'You /echo Two']);

  // A send continues the branch shown: the model gets its two turns, never the third of version 1.
  await widget.send('/context');
  await widget.waitForIdle();
  const report = widget.assistantMessages.last();
  await expect(report).toContainText('Asked before: “/echo One”, “/echo Two”.');
  await expect(report.locator('tr', { hasText: 'history' })).toContainText('4 messages');

  // A reload shows the same branch, with the same version of the second turn.
  await page.reload();
  await waitForDemo(page);
  await expect(widget.userMessages).toHaveText(['You /echo One', 'You /echo Two', 'You /context']);
  await expect(versionOf(widget.assistantMessages.nth(1))).toHaveText('2 / 3');

  // Edit the first question: a new first turn alone on the screen, with the old one a version away.
  const first = widget.assistantMessages.first();
  await first.hover();
  await first.locator('details.turn-edit > summary[aria-label="Edit question"]').click();
  await first.getByRole('textbox', { name: 'Edit question' }).fill('/echo Uno');
  await first.getByRole('button', { name: 'Send edited question' }).click();
  await widget.waitForIdle();
  await expect(widget.userMessages).toHaveText(['You /echo Uno']);
  await expect(widget.assistantMessages).toHaveCount(1);
  await expect(widget.assistantMessages.first().locator('.message-body')).toHaveText('Uno');
  await expect(versionOf(widget.assistantMessages.first())).toHaveText('2 / 2');
  await widget.send('/context');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last()).toContainText('Asked before: “/echo Uno”.');
});
