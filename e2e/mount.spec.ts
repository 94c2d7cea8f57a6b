import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, type DemoWindow } from './support/chat.ts';

/** Calls `AgentChat.mount(target, options)` in the page and returns the error message it threw. */
async function mountError(page: Page, target: unknown, options: unknown): Promise<string> {
  return page.evaluate(
    ([mountTarget, mountOptions]) => {
      try {
        window.AgentChat!.mount(mountTarget as string, mountOptions as never);
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    },
    [target, options] as const,
  );
}

test('mount errors say what to fix', async ({ page, pageErrors: _errors }) => {
  await openDemo(page);
  expect(await mountError(page, '#missing', { endpoint: '/api/agent' })).toBe(
    'AgentChat.mount: no element matches "#missing".',
  );
  expect(await mountError(page, '#inline-chat', { endpoint: '/api/agent' })).toBe(
    'AgentChat.mount: the target already has a chat; destroy() that mount first.',
  );
  expect(await mountError(page, '[[', { endpoint: '/api/agent' })).toBe('AgentChat.mount: no element matches "[[".');
  expect(await mountError(page, 42, { endpoint: '/api/agent' })).toBe(
    'AgentChat.mount: the target must be a CSS selector or an Element.',
  );
  expect(await mountError(page, 'main', undefined)).toBe(
    'AgentChat.mount: options must be an object such as { endpoint: "/api/agent" }.',
  );
  expect(await mountError(page, 'main', {})).toBe(
    'AgentChat.mount: options.endpoint must be an http(s) URL or path without query or fragment, e.g. "/api/agent".',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', endPoint: '/x' })).toBe(
    'AgentChat.mount: unknown option "endPoint"; the options are endpoint, agentVersion, sessionId, locale, theme, strings, title, avatarUrl, greeting, suggestions, collapseReasoning, persist, mode, startOpen, position, credentials, headers, selectAttachments, attachments, uploadAttachment, getReferences, renderers, conversations, getContext, effortPicker, feedback, showErrorReference, tools, toolRunner.',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', conversations: 'no' })).toBe(
    'AgentChat.mount: options.conversations must be true or false.',
  );
  expect(await mountError(page, 'main', { endpoint: 'javascript:alert(1)' })).toBe(
    'AgentChat.mount: options.endpoint must be an http(s) URL or path without query or fragment, e.g. "/api/agent".',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent?token=secret' })).toBe(
    'AgentChat.mount: options.endpoint must be an http(s) URL or path without query or fragment, e.g. "/api/agent".',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', mode: 'popup' })).toBe(
    'AgentChat.mount: options.mode must be "inline" or "launcher".',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', theme: 'blue' })).toBe(
    'AgentChat.mount: options.theme must be "light" or "dark" or "auto".',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', persist: 'yes' })).toBe(
    'AgentChat.mount: options.persist must be true or false.',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', strings: { send: 5 } })).toBe(
    'AgentChat.mount: options.strings must be an object of strings.',
  );
  expect(await mountError(page, 'main', { endpoint: '/api/agent', getReferences: 'x' })).toBe(
    'AgentChat.mount: options.getReferences must be a function.',
  );
  // None of the failed calls left a widget behind.
  await expect(page.locator('main > agent-chat')).toHaveCount(0);
  await expect(page.locator('main > [data-agent-chat-launcher]')).toHaveCount(0);
});

test('destroy removes the widget and frees the target for a new mount with other options', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const result = await page.evaluate(async () => {
    const demo = (window as DemoWindow).agentChatDemo!;
    demo.inline.destroy();
    demo.inline.destroy();
    const before = document.querySelectorAll('#inline-chat agent-chat').length;
    const again = window.AgentChat!.mount('#inline-chat', {
      endpoint: '/api/agent',
      locale: 'zh-CN',
      strings: { send: 'Ask' },
      theme: 'dark',
    });
    await again.ready;
    return {
      before,
      after: document.querySelectorAll('#inline-chat agent-chat').length,
      theme: again.element.getAttribute('theme'),
    };
  });
  expect(result).toEqual({ before: 0, after: 1, theme: 'dark' });
  await expect(chat(page).sendButton).toHaveAttribute('aria-label', 'Ask');
  await expect(chat(page).input).toHaveAttribute('placeholder', /[\u4e00-\u9fff]/);
});

test('the launcher opens the panel, focuses the composer, and Escape closes it back onto the button', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const button = page.locator('#launcher [part="launcher-button"]');
  const panel = page.locator('#launcher [part="launcher-panel"]');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toHaveAttribute('aria-label', 'Open chat');
  await expect(panel).toBeHidden();
  await button.click();
  await expect(panel).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const launcherChat = chat(page, '#launcher');
  await expect(launcherChat.input).toBeFocused();
  await launcherChat.send('/echo launcher works');
  await expect(launcherChat.assistantMessages.last()).toHaveText(/launcher works/);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(button).toBeFocused();
});

test('mount with sessionId restores that conversation', async ({ page, pageErrors: _errors }) => {
  await openDemo(page);
  await chat(page).send('/echo remember this');
  await expect(chat(page).assistantMessages.last()).toHaveText(/remember this/);
  await chat(page).waitForIdle();
  const sessionId = await page.evaluate(() => (window as DemoWindow).agentChatDemo!.inline.client.getState().sessionId);
  expect(sessionId).toMatch(/^ses_/);

  await page.evaluate(async (id) => {
    (window as DemoWindow).agentChatDemo!.inline.destroy();
    sessionStorage.clear();
    await window.AgentChat!.mount('#inline-chat', { endpoint: '/api/agent', sessionId: id as string }).ready;
  }, sessionId);
  await expect(chat(page).userMessages).toHaveText(['You /echo remember this']);
  await expect(chat(page).assistantMessages).toHaveText([/remember this/]);
});

test('the handle sends, opens, closes, starts a new conversation and reports it all through on()', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  await page.evaluate(() => {
    (window as DemoWindow).agentChatDemo!.launcher!.destroy();
    document.getElementById('launcher')!.style.setProperty('--agent-chat-launcher-size', '48px');
    const chat = window.AgentChat!.mount('#launcher', {
      endpoint: '/api/agent',
      mode: 'launcher',
      startOpen: true,
      position: 'bottom-start',
      title: 'Acme Assistant',
    });
    const seen: Array<[string, unknown]> = [];
    const names = [
      'agent-chat-launcher-open',
      'agent-chat-launcher-close',
      'agent-chat-session',
      'agent-chat-run-start',
      'agent-chat-tool-start',
      'agent-chat-tool-end',
      'agent-chat-message',
      'agent-chat-run-finish',
    ] as const;
    for (const name of names) {
      chat.on(name, (detail) => {
        const summary =
          detail && typeof detail === 'object'
            ? 'status' in detail
              ? detail.status
              : 'toolCall' in detail
                ? detail.toolCall.status
                : 'sessionId' in detail
                  ? typeof detail.sessionId
                  : 'message' in detail
                    ? detail.message.role
                    : ''
            : detail;
        seen.push([name, summary]);
      });
    }
    Object.assign(window, { handle: chat, seen });
  });
  const panel = page.locator('#launcher [part="launcher-panel"]');
  const button = page.locator('#launcher [part="launcher-button"]');
  // startOpen opens at once without taking focus; position puts it in the start corner; the size set on the target applies.
  await expect(panel).toBeVisible();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
  expect(await button.boundingBox()).toEqual(expect.objectContaining({ x: 24, width: 48, height: 48 }));
  const widget = chat(page, '#launcher');
  await expect(widget.root.locator('[part="header"] h2')).toHaveText('Acme Assistant');

  await page.evaluate(() =>
    (window as never as { handle: { send(text: string): Promise<void> } }).handle.send('/tool'),
  );
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await widget.waitForIdle();
  await page.evaluate(() => (window as never as { handle: { close(): void } }).handle.close());
  await expect(panel).toBeHidden();
  await page.evaluate(() => (window as never as { handle: { open(): void } }).handle.open());
  await expect(panel).toBeVisible();
  await expect(widget.input).toBeFocused();
  await page.evaluate(() => (window as never as { handle: { newConversation(): void } }).handle.newConversation());
  await expect(widget.root.locator('[part="empty-state"]')).toBeVisible();
  // startOpen opens once the launcher's sibling file has arrived, so a listener added right after mount sees it.
  // /tool: a short answer, the tool call (first seen while its arguments stream), then the answer built on its result.
  expect(await page.evaluate(() => (window as never as { seen: unknown[] }).seen)).toEqual([
    ['agent-chat-launcher-open', null],
    ['agent-chat-session', 'string'],
    ['agent-chat-run-start', ''],
    ['agent-chat-message', 'assistant'],
    ['agent-chat-tool-start', 'streaming_args'],
    ['agent-chat-tool-end', 'completed'],
    ['agent-chat-message', 'assistant'],
    ['agent-chat-run-finish', 'completed'],
    ['agent-chat-launcher-close', null],
    ['agent-chat-launcher-open', null],
    ['agent-chat-session', 'object'],
  ]);
});
