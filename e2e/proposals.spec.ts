import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';

test('/propose shows the preview; Apply runs the write and the model answers, Dismiss changes nothing', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);

  await widget.send('/propose');
  const card = widget.approvalCards.last();
  await expect(card).toHaveAttribute('data-state', 'open');
  await expect(card.locator('h3')).toHaveText('Proposed: Propose a profile change');
  await expect(card.locator('.approval-message')).toHaveText('Update your profile with the new display name and bio?');
  await expect(card.locator('.approval-value')).toHaveText([
    'Display name: Demo user → Ada Lovelace',
    '- Coffee drinker.',
    '+ Tea drinker.',
    '  Writes about agents.',
  ]);
  await expect(card.locator('[part~="allow-button"]')).toHaveText('Apply');
  await expect(card.locator('[part~="deny-button"]')).toHaveText('Dismiss');
  await card.locator('[part~="allow-button"]').click();
  await widget.waitForIdle();
  await expect(widget.approvalCards).toHaveCount(0);
  await expect(widget.toolCards.nth(0).locator('summary')).toHaveText(/Propose a profile change\s*Applied/);
  await expect(widget.toolCards.nth(1).locator('summary')).toHaveText(/Update the profile\s*Completed/);
  await widget.toolCards.nth(1).locator('summary').click();
  // The write's card: its arguments, its result, then the evidence of the governed path it went through.
  const writeTexts = widget.toolCards.nth(1).locator('pre');
  await expect(writeTexts).toHaveCount(3);
  await expect(writeTexts.nth(1)).toContainText('"updated": true');
  await expect(writeTexts.nth(2)).toHaveText('pre_tool_use: allow');
  await expect(widget.assistantMessages.last()).toHaveText(
    /Done: your profile now shows the new display name and bio\./,
  );

  // The profile now holds the applied values: a second proposal previews its change from them (the name stays).
  await widget.send('/propose Writes poems.');
  const second = widget.approvalCards.last();
  await expect(second.locator('.approval-value')).toHaveText([
    '- Tea drinker.',
    '- Writes about agents.',
    '+ Writes poems.',
  ]);
  await second.locator('[part~="deny-button"]').click();
  await widget.waitForIdle();
  await expect(widget.approvalCards).toHaveCount(0);
  await expect(widget.toolCards.last().locator('summary')).toHaveText(/Propose a profile change\s*Dismissed/);
  await expect(widget.toolCards).toHaveCount(3);
  await expect(widget.assistantMessages.last()).toHaveText(/Understood: your profile stays as it was\./);

  const state = await readState(page);
  expect(state.error).toBeNull();
  expect(state.interrupts.map((interrupt) => [interrupt.state, interrupt.decision])).toEqual([
    ['resolved', 'allow'],
    ['resolved', 'deny'],
  ]);
});
