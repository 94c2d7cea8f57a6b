import type { Page, Route } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, type DemoWindow } from './support/chat.ts';

/** The create of a run, as the widget posts it. */
const CREATES = '**/api/agent/v1/runs';
const CANCELS = '**/api/agent/v1/runs/*/cancel';

/**
 * Makes the server slow for the next matching POST: with `reachesServer` it is handled at once
 * (the run exists) but its answer reaches the page only when the returned function is called;
 * without, the request itself waits until then.
 */
async function holdNextPost(page: Page, url: string, options: { reachesServer: boolean }): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let isHeld = false;
  await page.route(url, async (route: Route) => {
    if (isHeld || route.request().method() !== 'POST') return route.fallback();
    isHeld = true;
    if (!options.reachesServer) {
      await released;
      return route.continue().catch(() => undefined);
    }
    const response = await route.fetch();
    await released;
    await route.fulfill({ response }).catch(() => undefined);
  });
  return release;
}

/** Records unhandled promise rejections of the page from its first script on. */
async function recordUnhandledRejections(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as { unhandledRejections?: string[] }).unhandledRejections = seen;
    window.addEventListener('unhandledrejection', (event) => seen.push(String(event.reason)));
  });
  return () => page.evaluate(() => (window as { unhandledRejections?: string[] }).unhandledRejections ?? []);
}

/** Lets every settled request's promise chain run in the page (a macrotask after the last answer). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
}

test('Stop during a slow create shows "Stopping…" at once, cancels the run once its id arrives, and settles', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  const releaseCreate = await holdNextPost(page, CREATES, { reachesServer: true });
  await widget.send('/slow');
  await expect(widget.stopButton).toHaveAttribute('aria-label', 'Stop');
  await widget.stopButton.click();
  await expect(widget.stopButton).toHaveAttribute('aria-label', 'Stopping…');
  await expect(widget.stopButton).toBeDisabled();
  await expect(widget.root.locator('[part="status"]')).toHaveText('Stopping…');
  expect(await page.evaluate(() => (window as DemoWindow).agentChatDemo!.inline.client.getState())).toMatchObject({
    isStopping: true,
    run: null,
  });

  releaseCreate();
  await widget.waitForIdle();
  const state = await readState(page);
  expect(state.run?.status).toBe('cancelled');
  expect(state).toMatchObject({ isStopping: false, error: null });
  await expect(widget.root.locator('[part="status"]')).toHaveText('');
});

test('destroying the widget or disposing its client during a send, a stream or a cancel rejects nothing unhandled', async ({
  page,
  pageErrors: _errors,
}) => {
  const unhandled = await recordUnhandledRejections(page);
  await openDemo(page);
  const remount = () =>
    page.evaluate(() => {
      const demo = (window as unknown as { agentChatDemo: { inline: { destroy(): void } } }).agentChatDemo;
      demo.inline.destroy();
      // A fresh conversation each time (the default would restore the one the last widget had).
      demo.inline = window.AgentChat!.mount('#inline-chat', { endpoint: '/api/agent', persist: false });
    });
  const widget = chat(page);

  // During a send: the create is unanswered when the widget goes.
  const releaseCreate = await holdNextPost(page, CREATES, { reachesServer: true });
  await widget.send('/echo never seen');
  await expect(widget.stopButton).toBeVisible();
  await remount();
  releaseCreate();
  await settle(page);

  // During a stream: the client is disposed under the live element, then the widget goes.
  await widget.send('/slow');
  await expect(widget.assistantMessages.last()).toContainText('word3');
  await page.evaluate(() => (window as DemoWindow).agentChatDemo!.inline.client.dispose());
  await settle(page);
  await remount();

  // During a cancel: Stop is pressed, and the widget goes before the server confirms.
  const releaseCancel = await holdNextPost(page, CANCELS, { reachesServer: false });
  await widget.send('/slow');
  await expect(widget.assistantMessages.last()).toContainText('word3');
  await widget.stopButton.click();
  await expect(widget.stopButton).toHaveAttribute('aria-label', 'Stopping…');
  await remount();
  releaseCancel();
  await settle(page);

  expect(await unhandled()).toEqual([]);
  await widget.send('/echo still fine');
  await expect(widget.assistantMessages.last()).toHaveText(/still fine/);
});

test('/error keeps the turn on screen while the answer is retried, and says so', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  // Watch every DOM change of the transcript: once the first attempt's text is shown, the turn must never be empty.
  await page.evaluate(() => {
    const root = document.querySelector('#inline-chat agent-chat')?.shadowRoot as ShadowRoot;
    const seen = { hasText: false, wentBlank: false, sawRetrying: false };
    (window as { retryWatch?: typeof seen }).retryWatch = seen;
    new MutationObserver(() => {
      const answers = root.querySelectorAll('[part~="assistant-message"]');
      if (answers.length > 0 && (answers[answers.length - 1]?.textContent ?? '').includes('first attempt')) {
        seen.hasText = true;
      }
      if (seen.hasText && answers.length === 0) seen.wentBlank = true;
      const working = root.querySelector('[part="working"]')?.textContent ?? '';
      if (root.querySelector('[part~="assistant-message"][data-discarded]') && working.startsWith('Retrying'))
        seen.sawRetrying = true;
    }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await widget.send('/error');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last()).toHaveText(/Recovered: the first attempt failed/);
  await expect(widget.assistantMessages).toHaveCount(1);
  expect(await page.evaluate(() => (window as { retryWatch?: unknown }).retryWatch)).toEqual({
    hasText: true,
    wentBlank: false,
    sawRetrying: true,
  });
});

test('/fail offers no Retry, and its failure stays with its turn after later messages', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/fail');
  await widget.waitForIdle();
  // The error is the turn's, not a box above the composer, and no Retry: retrying cannot help.
  const failure = widget.root.locator('[part~="run-error"]');
  await expect(failure).toContainText('This answer failed: The model could not answer this request.');
  await expect(widget.root.locator('[part="error"]')).toHaveCount(0);
  await expect(widget.root.locator('[part="retry-button"]')).toHaveCount(0);

  await widget.send('/echo a later message');
  await widget.waitForIdle();
  await expect(failure).toHaveCount(1);
  // In reading order: the /fail turn, its failure, then the later turn.
  const order = await widget.root
    .locator('.transcript-content > *')
    .evaluateAll((rows) =>
      rows.map((row) => (row.matches('[part~="run-error"]') ? 'failure' : (row.textContent ?? '').trim().slice(0, 40))),
    );
  const failureAt = order.indexOf('failure');
  expect(order.slice(0, failureAt).some((row) => row.includes('/fail'))).toBe(true);
  expect(order.slice(failureAt + 1).some((row) => row.includes('/echo a later message'))).toBe(true);
});

test.describe('a refused agent-chat.js', () => {
  const fallback = 'The chat could not be loaded. Reload the page to try again.';

  test('a 404 leaves the page working with a short note instead of the chat', async ({ page, pageErrors: _errors }) => {
    await page.route('**/agent-chat.js', (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.goto('/');
    await expect(page.locator('#inline-chat')).toHaveText(fallback);
    await expect(page.locator('agent-chat')).toHaveCount(0);
  });

  test('a Content Security Policy that does not allow it leaves the same note', async ({
    page,
    baseURL,
    pageErrors: _errors,
  }) => {
    await page.route('/', async (route) => {
      const response = await route.fetch();
      const headers = {
        ...response.headers(),
        'content-security-policy': `script-src ${baseURL}/demo/demo-page.js`,
      };
      await route.fulfill({ response, headers });
    });
    await page.goto('/');
    await expect(page.locator('#inline-chat')).toHaveText(fallback);
    expect(await page.evaluate(() => typeof window.AgentChat)).toBe('undefined');
  });
});
