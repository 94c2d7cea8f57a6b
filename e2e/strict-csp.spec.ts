import { test, expect } from './support/fixtures.ts';
import { chat, openDemo } from './support/chat.ts';

test('the strict-CSP page with Trusted Types works with no violation reported', async ({
  page,
  pageErrors: _errors,
}) => {
  const response = await page.goto('/strict.html');
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  expect(response?.headers()['content-security-policy']).toBe(
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types agent-chat lit-html agent-chat-conversations",
  );
  await openDemo(page, '/strict.html');
  const widget = chat(page, '#strict-chat');

  await widget.send('Hello under a strict policy');
  await widget.waitForIdle();
  await expect(widget.reasoning).toHaveCount(1);
  await widget.send('/tool');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  // The second script (agent-chat-tools.js, pinned by its own integrity) runs a browser tool here too.
  await widget.send('/clienttool page.read_selection {}');
  await widget.waitForIdle();
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'completed');
  await expect(widget.toolCards.last().locator('.tool-status')).toHaveText('Completed in this browser');
  await widget.send(
    '/echo ## Code\n\n```js\nconsole.log(1)\n```\n\n[a link](https://example.com) <b>raw</b> ![img](https://attacker.example/x.png)',
  );
  await widget.waitForIdle();
  const answer = widget.assistantMessages.last();
  await expect(answer.locator('h2')).toHaveText('Code');
  await expect(answer.locator('pre code')).toHaveText('console.log(1)');
  await expect(answer.locator('a[href="https://example.com/"]')).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(answer).toContainText('<b>raw</b>');
  await expect(answer.locator('img')).toHaveCount(0);

  // The conversations sheet (agent-chat.conversations.js, its own Lit under its own policy name) works here too.
  const conversationsButton = widget.root.locator('[part~="conversations-button"]');
  await conversationsButton.click();
  const sheet = widget.root.locator('agent-chat-conversations');
  await expect(sheet.locator('li.row')).toHaveCount(1);
  await sheet.locator('.rename-button').click();
  await sheet.getByRole('textbox', { name: 'New title' }).fill('Strict chat');
  await page.keyboard.press('Enter');
  await expect(sheet.locator('li.row')).toContainText('Strict chat');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(conversationsButton).toBeFocused();

  expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
  await expect(page.locator('#csp-violation-count')).toHaveText('0');
  // The policy is really enforced: a string reaching an HTML sink is refused.
  const sink = await page.evaluate(() => {
    try {
      document.createElement('div').innerHTML = '<b>x</b>';
      return 'allowed';
    } catch (error) {
      return (error as Error).name;
    }
  });
  expect(sink).toBe('TypeError');
});
