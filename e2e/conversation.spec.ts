import { readFileSync } from 'node:fs';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';
import { expectedSlowTokens, readSlowTokens } from './support/slow-tokens.ts';

test('a full conversation: reasoning and Markdown, a read-only tool, one approval allowed and one denied', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);

  await widget.send('Hello there');
  await widget.waitForIdle();
  await expect(widget.userMessages).toHaveText(['You Hello there']);
  await expect(widget.reasoning).toHaveCount(1);
  await expect(widget.reasoning.first()).toContainText('Reasoning');
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'complete');

  await widget.send('/tool');
  await widget.waitForIdle();
  await expect(widget.toolCards).toHaveCount(1);
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  // One line with the tool's title, never its internal name; the arguments wait behind it.
  await expect(widget.toolCards.first().locator('summary')).toHaveText(/Look up an order\s*Completed/);
  await expect(widget.toolCards.first()).not.toContainText('orders.lookup');
  await expect(widget.toolCards.first().locator('pre').first()).toBeHidden();
  await widget.toolCards.first().locator('summary').click();
  await expect(widget.toolCards.first().locator('pre').first()).toContainText('"orderId": "A-1001"');
  await expect(widget.assistantMessages.last().locator('table')).toContainText('Status');
  await expect(widget.assistantMessages.last().locator('h3')).toHaveText('Order A-1001');

  await widget.send('/approval');
  const allowCard = widget.approvalCards.last();
  await expect(allowCard).toHaveAttribute('data-state', 'open');
  // The tool's own question names the draft by its title; the arguments read as a list.
  await expect(allowCard.locator('h3')).toHaveText('Delete the draft "Quarterly report (unfinished)"?');
  await expect(allowCard.locator('.approval-consequence')).toHaveText("This can't be undone.");
  await expect(allowCard.locator('.approval-arg dt')).toHaveText(['draftId']);
  await expect(allowCard.locator('.approval-arg dd')).toHaveText(['draft-42']);
  // The exact JSON and the tool's name are one click away.
  await expect(allowCard.locator('.approval-json')).toBeHidden();
  await allowCard.locator('.approval-details summary').click();
  await expect(allowCard.locator('.approval-tool')).toHaveText('Tool: drafts.delete');
  await expect(allowCard.locator('.approval-json')).toHaveText('{\n  "draftId": "draft-42"\n}');
  await expect(allowCard).toHaveAttribute('data-destructive', '');
  await allowCard.locator('[part~="allow-button"]').click();
  await widget.waitForIdle();
  // Answered, the approval gives way to the call's one line.
  await expect(widget.approvalCards).toHaveCount(0);
  await expect(widget.toolCards.last().locator('summary')).toHaveText(/Delete a draft\s*Completed/);
  await expect(widget.assistantMessages.last()).toHaveText(/Done: draft-42 was deleted\./);

  await widget.send('/approval');
  const denyCard = widget.approvalCards.last();
  await expect(widget.approvalCards).toHaveCount(1);
  await expect(denyCard).toHaveAttribute('data-state', 'open');
  // draft-42 is gone, so the second /approval asks about this user's next draft.
  await expect(denyCard.locator('h3')).toHaveText('Delete the draft "Re: lunch on Friday"?');
  await expect(denyCard.locator('.approval-arg dd')).toHaveText(['draft-43']);
  await denyCard.locator('[part~="deny-button"]').click();
  await widget.waitForIdle();
  await expect(widget.approvalCards).toHaveCount(0);
  await expect(widget.assistantMessages.last()).toHaveText(/Understood: I did not delete draft-43\./);
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'denied');
  await expect(widget.toolCards.last().locator('summary')).toHaveText(/Delete a draft\s*Denied/);

  await expect(widget.userMessages).toHaveText(['You Hello there', 'You /tool', 'You /approval', 'You /approval']);
  const state = await readState(page);
  expect(state.error).toBeNull();
  expect(state.interrupts.map((interrupt) => interrupt.state)).toEqual(['resolved', 'resolved']);
});

test('Stop cancels the run and the transcript ends cleanly', async ({ page, pageErrors: _errors }) => {
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/slow');
  await expect(widget.assistantMessages.last()).toContainText('word5');
  await widget.stopButton.click();
  await widget.waitForIdle();

  const state = await readState(page);
  expect(state.run?.status).toBe('cancelled');
  const answer = state.messages.filter((message) => message.role === 'assistant').at(-1);
  expect(answer?.status).toBe('cancelled');
  expect(state.messages.filter((message) => message.status === 'streaming')).toEqual([]);
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'cancelled');
  // The transcript shows exactly what the run produced before it was cancelled, in order.
  const shown = await widget.assistantMessages.last().locator('.message-body').innerText();
  expect(readSlowTokens(shown)).toEqual(expectedSlowTokens(readSlowTokens(answer?.content ?? '').length));

  await widget.send('/echo still works after Stop');
  await expect(widget.assistantMessages.last()).toHaveText(/still works after Stop/);
  await widget.waitForIdle();
});

test("the demo's scenario buttons type the command into the composer", async ({ page, pageErrors: _errors }) => {
  await openDemo(page);
  const widget = chat(page);
  await page.locator('button[data-scenario="/tool"]').click();
  await expect(widget.input).toHaveValue('/tool');
  await expect(widget.input).toBeFocused();
  await page.keyboard.press('Enter');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
});

test('the demo page has a button for every scripted scenario of the README', async ({ page, pageErrors: _errors }) => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.slice(
    readme.indexOf('## Scripted scenarios'),
    readme.indexOf('\n## ', readme.indexOf('## Scripted scenarios') + 1),
  );
  // Each row's first cell: `/command <args>` or "anything".
  const commands = [...table.matchAll(/^\| (?:`(\/\w+)[^`]*`|(anything)) \|/gm)].map((row) => row[1] ?? row[2]);
  expect(commands.length).toBe(16);
  await openDemo(page);
  const scenarios = await page
    .locator('button[data-scenario]')
    .evaluateAll((buttons) => buttons.map((button) => (button as HTMLButtonElement).dataset['scenario'] ?? ''));
  for (const command of commands) {
    const hasButton = scenarios.some((scenario) =>
      command === 'anything' ? !scenario.startsWith('/') : scenario.split(' ')[0] === command,
    );
    expect(hasButton, `a button for ${command}`).toBe(true);
  }
});

test('the transcript follows the answer: each approval card arrives fully in view, and a reload opens at the end', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  const transcript = widget.root.locator('[part="transcript"]');
  const jump = widget.root.locator('[part="jump-button"]');
  /** How far the card's box lies outside the transcript's viewport (0: fully inside). */
  const overflowOf = (card: ReturnType<typeof widget.approvalCards.last>) =>
    card.evaluate((element) => {
      const view = element.closest('[part="transcript"]')!.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      return Math.max(0, view.top - box.top) + Math.max(0, box.bottom - view.bottom);
    });
  const distanceToEnd = () =>
    transcript.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);

  // A long answer first, so the transcript scrolls; the first approval also loads the cards' file.
  for (const text of ['/long 3000', '/approval', '/tool', '/approval']) {
    await widget.send(text);
    if (text === '/approval') {
      const card = widget.approvalCards.last();
      await expect(card).toHaveAttribute('data-state', 'open');
      await expect.poll(() => overflowOf(card)).toBeLessThanOrEqual(1);
      await expect(jump).toHaveCount(0);
      await card.locator('[part~="deny-button"]').click();
    }
    await widget.waitForIdle();
    await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
    await expect(jump).toHaveCount(0);
  }
  expect(await transcript.evaluate((element) => element.scrollHeight > element.clientHeight * 2)).toBe(true);

  const answers = await widget.assistantMessages.count();
  await page.reload();
  await expect(widget.assistantMessages).toHaveCount(answers);
  await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
  await expect(jump).toHaveCount(0);
});
