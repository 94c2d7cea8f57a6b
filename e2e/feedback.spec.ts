import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, waitForDemo } from './support/chat.ts';

test('feedback under the strict CSP: vote, change the vote, comment, and a reload shows it', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page, '/strict.html');
  const widget = chat(page, '#strict-chat');
  await widget.send('/echo rate me');
  await widget.waitForIdle();
  const answer = widget.assistantMessages.last();
  await expect(answer).toContainText('rate me');
  // The turn actions are a sibling file, pinned by its integrity, loaded with the first finished answer.
  await expect(page.locator('head script[src$="/agent-chat.turn-actions.js"]')).toHaveAttribute(
    'integrity',
    /^sha384-/,
  );
  await answer.hover();
  const up = answer.getByRole('button', { name: 'Good answer' });
  const down = answer.getByRole('button', { name: 'Bad answer' });
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible();

  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await down.click();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await expect(up).toHaveAttribute('aria-pressed', 'false');

  await answer.getByText('Add a comment').click();
  await answer.getByRole('textbox', { name: 'Add a comment' }).fill('It only echoed me');
  await answer.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(answer.locator('details.feedback-comment')).not.toHaveAttribute('open', '');

  await page.reload();
  await waitForDemo(page);
  const restored = widget.assistantMessages.last();
  await expect(restored).toContainText('rate me');
  await expect(restored.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
  await expect(restored.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'false');
  await expect(restored.locator('details.feedback-comment textarea')).toHaveValue('It only echoed me');
  expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
});
