import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';
import { installTestTools, type ToolTestWindow } from './support/browser-tools.ts';

/** The paths of the executor requests the page sends (`/executors/{id}/connect`, …), in order. */
function watchExecutorRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    const match = /\/executors\/[^/]+\/([a-z]+)$/.exec(pathname);
    if (match) paths.push(`${request.method()} ${match[1]}`);
  });
  return paths;
}

/** A page that knows the browser tool `test.word` (returns `{ word: 'mounted' }`) as `window.wordTool`. */
interface WordToolWindow extends ToolTestWindow {
  wordTool?: Record<string, unknown>;
  /** Mounts the inline widget again with `options`; returns `mounted`, or the error's message. */
  attemptMount?: (options: Record<string, unknown>) => string;
}

/** Defines `window.wordTool` and `window.attemptMount` on every load of the page; mounts nothing. */
async function installWordTool(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const target = window as unknown as WordToolWindow;
    target.attemptMount = (options) => {
      try {
        window.AgentChat!.mount('#inline-chat', { endpoint: '/api/agent', ...options });
        return 'mounted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    target.wordTool = {
      description: 'Returns a fixed word (an e2e test tool).',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      policy: 'allow',
      run: () => ({ word: 'mounted' }),
    };
  });
}

test('a mount without tools starts no runner and the script tag without agent-chat-tools.js refuses tools by name', async ({
  page,
  pageErrors: _errors,
}) => {
  await page.route('**/agent-chat-tools.js', (route) => route.abort());
  await installWordTool(page);
  const executorRequests = watchExecutorRequests(page);
  await openDemo(page);
  const result = await page.evaluate(() => {
    const demo = (window as WordToolWindow).agentChatDemo!;
    const attempt = (window as WordToolWindow).attemptMount!;
    demo.inline.destroy();
    const tools = { 'test.word': (window as WordToolWindow).wordTool };
    return {
      hasToolsFile: 'AgentChatTools' in window,
      runners: [demo.inline.client.getState().toolRunner, demo.launcher?.client.getState().toolRunner],
      withTools: attempt({ tools }),
      withRunnerOptions: attempt({ toolRunner: { receipts: 'indexeddb' } }),
      notAnObject: attempt({ tools: ['test.word'] }),
      mountedAfter: document.querySelectorAll('#inline-chat agent-chat').length,
    };
  });
  expect(result).toEqual({
    hasToolsFile: false,
    runners: [null, null],
    withTools:
      'AgentChat.mount: options.tools needs agent-chat-tools.js: load it (its integrity is in manifest.json) before mount runs.',
    withRunnerOptions:
      'AgentChat.mount: options.tools needs agent-chat-tools.js: load it (its integrity is in manifest.json) before mount runs.',
    notAnObject: 'AgentChat.mount: options.tools must be an object.',
    mountedAfter: 0,
  });
  // Two mounts bootstrapped and none had tools: the page never spoke to the executor routes.
  expect(executorRequests).toEqual([]);
});

test('mount checks the tools and runner options when it attaches them, and nothing stays mounted', async ({
  page,
  pageErrors: _errors,
}) => {
  await installWordTool(page);
  await openDemo(page);
  const messages = await page.evaluate(() => {
    const demo = (window as WordToolWindow).agentChatDemo!;
    demo.inline.destroy();
    const valid = (window as WordToolWindow).wordTool;
    const attempt = (window as WordToolWindow).attemptMount!;
    return [
      attempt({ tools: { 'test word': valid } }),
      attempt({ tools: { 'test.word': { ...valid, run: 'not code' } } }),
      attempt({ tools: { 'test.word': valid }, toolRunner: { receipts: 'localStorage' } }),
      attempt({ tools: { 'test.word': valid }, toolRunner: { executorID: 'exe_1' } }),
      attempt({ toolRunner: { receipts: 'memory' } }),
      String(document.querySelectorAll('#inline-chat agent-chat').length),
    ];
  });
  expect(messages).toEqual([
    'Browser tool "test word": its name must be 1–64 letters, digits, "_", "." or "-".',
    'Browser tool "test.word": it needs a run(args, context) function.',
    'Browser tools: the option "receipts" must be "memory", "indexeddb" or a function that makes a store for an identity id.',
    'Browser tools: unknown option "executorID"; the options are tools, locale, receipts, executorId, authorize, reconcile, onDiagnostic, clock, ids.',
    'tools must be an object of browser tools keyed by name.',
    '0',
  ]);
});

test('destroy() revokes the runner: its handler aborts, the executor disconnects, then the client goes', async ({
  page,
  pageErrors: _errors,
}) => {
  await installTestTools(page);
  const executorRequests = watchExecutorRequests(page);
  await openDemo(page);
  await page.waitForFunction(
    () => (window as ToolTestWindow).agentChatDemo?.inline.client.getState().toolRunner != null,
  );
  const widget = chat(page);
  await widget.send('/clienttool test.hold {}');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'running');
  expect((await readState(page)).toolCalls[0]?.executor?.executorId).toMatch(/^exe_/);
  const disconnected = page.waitForResponse((response) => response.url().endsWith('/disconnect'));
  await page.evaluate(() => (window as ToolTestWindow).agentChatDemo?.inline.destroy());
  expect((await disconnected).status()).toBe(200);
  expect(await page.evaluate(() => (window as ToolTestWindow).toolAborts)).toEqual(['revoked']);
  // Once the executor is disconnected the client is disposed: it refuses any further work.
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as ToolTestWindow).agentChatDemo?.inline.client.bootstrap().then(
          () => 'alive',
          (error: { code?: string }) => error.code,
        ),
      ),
    )
    .toBe('CLIENT_DISPOSED');
  expect(executorRequests[0]).toBe('POST connect');
  expect(executorRequests.at(-1)).toBe('POST disconnect');
  expect(executorRequests.filter((line) => line === 'POST disconnect')).toHaveLength(1);
});

test('the ESM mount loads the runner only for a mount with tools, and runs the tool through the real server', async ({
  page,
  pageErrors: _errors,
}) => {
  const toolModules: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/esm/tools.js')) toolModules.push(request.url());
  });
  await installWordTool(page);
  await openDemo(page, '/esm.html');
  // The page's own mount has no tools: the runner's module was never fetched.
  expect(toolModules).toEqual([]);
  await page.evaluate(async () => {
    const demo = (window as WordToolWindow).agentChatDemo!;
    demo.inline.destroy();
    const { mount } = (await import('/esm/index.js' as string)) as {
      mount: (target: string, options: Record<string, unknown>) => typeof demo.inline;
    };
    demo.inline = mount('#esm-chat', {
      endpoint: '/api/agent',
      tools: { 'test.word': (window as WordToolWindow).wordTool },
    });
  });
  await page.waitForFunction(
    () => (window as ToolTestWindow).agentChatDemo?.inline.client.getState().toolRunner != null,
  );
  expect(toolModules).toHaveLength(1);
  const widget = chat(page, '#esm-chat');
  await widget.send('/clienttool test.word {}');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await expect(widget.toolCards.first().locator('.tool-status')).toHaveText('Completed in this browser');
  await expect(widget.assistantMessages.last().locator('.message-body')).toHaveText(
    'The browser tool test.word returned: {"word":"mounted"}',
  );
});

test('an ESM mount whose runner module fails to load reports the error and the chat runs without tools', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('**/esm/tools.js', (route) => route.abort());
  await installWordTool(page);
  await openDemo(page, '/esm.html');
  const state = await page.evaluate(async () => {
    const demo = (window as WordToolWindow).agentChatDemo!;
    demo.inline.destroy();
    const { mount } = (await import('/esm/index.js' as string)) as {
      mount: (target: string, options: Record<string, unknown>) => typeof demo.inline & { ready: Promise<void> };
    };
    const mounted = mount('#esm-chat', {
      endpoint: '/api/agent',
      tools: { 'test.word': (window as WordToolWindow).wordTool },
    });
    demo.inline = mounted;
    await mounted.ready;
    return {
      isBootstrapped: mounted.client.getState().bootstrap !== null,
      runner: mounted.client.getState().toolRunner,
    };
  });
  expect(state).toEqual({ isBootstrapped: true, runner: null });
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain('/esm/tools.js');
});
