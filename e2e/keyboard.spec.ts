import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';
import { focusedPart, tabTo } from './support/keyboard.ts';

test('keyboard only: type, send, reach Allow, approve, and land back in the composer', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  // Start from the page, as a keyboard user does: Tab through the host page into the widget.
  await page.locator('body').focus();
  await tabTo(page, 'input', 'Tab', 60);
  await page.keyboard.type('/approval');
  await page.keyboard.press('Enter');
  await expect(widget.approvalCards).toHaveCount(1);
  await expect(widget.approvalCards.first()).toHaveAttribute('data-state', 'open');
  expect(await focusedPart(page)).toBe('input');

  await tabTo(page, 'allow-button', 'Shift+Tab');
  await page.keyboard.press('Enter');
  // Focus moves on to the composer at once, never to <body>, while the card collapses.
  expect(await focusedPart(page)).toBe('input');
  await widget.waitForIdle();
  await expect(widget.approvalCards).toHaveCount(0);
  expect((await readState(page)).interrupts).toEqual([expect.objectContaining({ decision: 'allow' })]);
  expect(await focusedPart(page)).toBe('input');

  await page.keyboard.type('/echo typed without a mouse');
  await page.keyboard.press('Enter');
  await expect(widget.assistantMessages.last()).toHaveText(/typed without a mouse/);
});

test('keyboard only, after a finished turn: Deny with Space keeps focus in the widget, on the composer', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  // A finished turn first: its actions (Edit, the feedback comment) hold textareas of their own.
  await widget.send('/echo first');
  await widget.waitForIdle();
  await expect(widget.root.locator('[part~="message-actions"]')).toHaveCount(1);

  await widget.input.focus();
  await page.keyboard.type('/approval');
  await page.keyboard.press('Enter');
  await expect(widget.approvalCards.first()).toHaveAttribute('data-state', 'open');
  await tabTo(page, 'deny-button', 'Shift+Tab');
  await page.keyboard.press('Space');
  expect(await focusedPart(page)).toBe('input');
  await widget.waitForIdle();
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'denied');
  expect(await focusedPart(page)).toBe('input');
});
