import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo } from './support/chat.ts';

const SIBLINGS = ['/agent-chat.launcher.js', '/agent-chat.conversations.js', '/agent-chat.tool-cards.js'];

/** The paths of the sibling files the page has requested so far, in order. */
function recordSiblingRequests(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (SIBLINGS.includes(path)) requested.push(path);
  });
  return requested;
}

/** The SRI integrity the build recorded for `fileName` (dist/manifest.json as the demo serves it). */
async function integrityOf(page: Page, fileName: string): Promise<string> {
  const manifest = (await (await page.request.get('/manifest.json')).json()) as {
    files: Record<string, { integrity: string }>;
  };
  return manifest.files[fileName]!.integrity;
}

test('under the strict CSP with Trusted Types, agent-chat.js fetches its sibling files only when they are used, pinned', async ({
  page,
  pageErrors: _errors,
}) => {
  const requested = recordSiblingRequests(page);
  await openDemo(page, '/strict.html');
  const widget = chat(page, '#strict-chat');
  await widget.send('/echo nothing opened yet');
  await widget.waitForIdle();
  // An inline widget whose sheet is never opened needs neither file.
  expect(requested).toEqual([]);

  await widget.root.locator('[part~="conversations-button"]').click();
  const sheet = widget.root.locator('agent-chat-conversations');
  await expect(sheet.locator('li.row')).toHaveCount(1);
  await expect(sheet).toBeFocused();
  expect(requested).toEqual(['/agent-chat.conversations.js']);
  const conversationsScript = page.locator('head script[src$="/agent-chat.conversations.js"]');
  await expect(conversationsScript).toHaveAttribute(
    'integrity',
    await integrityOf(page, 'agent-chat.conversations.js'),
  );
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  // Opening it again uses the file already loaded.
  await widget.root.locator('[part~="conversations-button"]').click();
  await expect(sheet.locator('li.row')).toHaveCount(1);
  await page.keyboard.press('Escape');

  // A launcher mount loads the launcher's file and opens onto a working chat.
  await page.evaluate(() => {
    const target = document.createElement('div');
    target.id = 'late-launcher';
    document.body.append(target);
    window.AgentChat!.mount(target, { endpoint: '/api/agent', mode: 'launcher' });
  });
  await page.locator('#late-launcher [part="launcher-button"]').click();
  const launcherChat = chat(page, '#late-launcher');
  await expect(launcherChat.input).toBeFocused();
  await launcherChat.send('/echo launcher under strict CSP');
  await expect(launcherChat.assistantMessages.last()).toHaveText(/launcher under strict CSP/);
  expect(requested).toEqual(['/agent-chat.conversations.js', '/agent-chat.launcher.js']);
  await expect(page.locator('head script[src$="/agent-chat.launcher.js"]')).toHaveAttribute(
    'integrity',
    await integrityOf(page, 'agent-chat.launcher.js'),
  );

  // The first tool call (here with its approval) loads the tool cards' file; they render with the widget's Lit and styles.
  await widget.send('/approval');
  const card = widget.approvalCards.last();
  await expect(card).toContainText('"draftId": "draft-42"');
  await expect(card).toHaveCSS('border-top-width', '2px');
  await card.locator('[part~="allow-button"]').click();
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last()).toHaveText(/Done: draft-42 was deleted\./);
  expect(requested).toEqual(['/agent-chat.conversations.js', '/agent-chat.launcher.js', '/agent-chat.tool-cards.js']);
  await expect(page.locator('head script[src$="/agent-chat.tool-cards.js"]')).toHaveAttribute(
    'integrity',
    await integrityOf(page, 'agent-chat.tool-cards.js'),
  );

  expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
});

test('a sibling file whose bytes are not the build’s is refused: the sheet stays closed and the error is reported', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('**/agent-chat.conversations.js', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\n// changed on the way` });
  });
  await openDemo(page, '/strict.html');
  const widget = chat(page, '#strict-chat');
  await widget.root.locator('[part~="conversations-button"]').click();
  await expect.poll(() => errors).toEqual(['AgentChat: agent-chat.conversations.js did not load']);
  await expect(widget.root.locator('agent-chat-conversations')).toHaveCount(0);
  expect(await page.evaluate(() => customElements.get('agent-chat-conversations'))).toBe(undefined);
});
