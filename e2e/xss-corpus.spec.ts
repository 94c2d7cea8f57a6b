import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { AgentClient } from '../src/index.ts';
import { test, expect } from './support/fixtures.ts';
import { openDemo } from './support/chat.ts';
import { inspectLastAnswer, type InvariantFailures } from './support/inspect-markdown.ts';
import { watchIntermediateRenders } from './support/watch-intermediate-renders.ts';

interface CorpusEntry {
  id: string;
  category: string;
  markdown: string;
  must: string[];
}

/** The corpus kept in the repository (sources in test/fixtures/README.md). */
const CORPUS_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/xss-corpus.jsonl');
/**
 * `/echo` streams 4 characters per 25 ms delta and the engine gives one model attempt 60 s, so
 * an entry must stay under about 9,600 characters to finish (and over 32,000 the server refuses
 * the message). The 13 longer entries (10,000 to 200,000 characters, all `dos`) are fed to the
 * Markdown pipeline directly by the widget's own tests; everything up to this length goes
 * through the real stack here.
 */
const MAX_ECHO_CHARS = 8000;
const WORKERS = 6;
/** The invariants this test decides: DOM scans per entry, and page-wide recorders for the rest. */
const JUDGED = [
  'NO_EXEC',
  'NO_NET',
  'NO_NAV',
  'NO_CRASH',
  'NO_ON_ATTR',
  'SAFE_URL',
  'ALLOWED_EL',
  'NO_STYLE',
  'LINK_SAFE',
  'NO_CLOBBER',
  'NO_REMOTE_IMG',
  'IDEMPOTENT',
];

const corpus = readFileSync(CORPUS_PATH, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as CorpusEntry);
const echoed = corpus.filter((entry) => entry.markdown.length <= MAX_ECHO_CHARS);

/** Sends `/echo <markdown>` from the widget in `#<containerId>` and waits until its run ends and it rendered. */
async function echoThrough(page: Page, containerId: string, markdown: string): Promise<string> {
  return page.evaluate(
    async ([id, text]) => {
      const mounted = (
        window as unknown as {
          xssMounts: Record<
            string,
            { client: AgentClient; element: HTMLElement & { updateComplete: Promise<boolean> } }
          >;
        }
      ).xssMounts[id]!;
      const { runId } = await mounted.client.send(`/echo ${text}`);
      await new Promise<void>((done) => {
        const check = (): boolean => {
          const state = mounted.client.getState();
          return (
            state.run?.runId === runId && ['completed', 'failed', 'cancelled', 'expired'].includes(state.run.status)
          );
        };
        if (check()) return done();
        const unsubscribe = mounted.client.subscribe(() => {
          if (check()) {
            unsubscribe();
            done();
          }
        });
      });
      await mounted.element.updateComplete;
      await new Promise((settle) => requestAnimationFrame(settle));
      return mounted.client.getState().run?.status ?? 'none';
    },
    [containerId, markdown] as const,
  );
}

test('the hostile Markdown corpus streamed through /echo never executes, fetches, navigates or escapes', async ({
  page,
  context,
  baseURL,
  pageErrors: _errors,
}, testInfo) => {
  test.setTimeout(600_000);
  const origin = new URL(baseURL as string).origin;
  const offOrigin: string[] = [];
  await context.route('**/*', async (route) => {
    const request = route.request();
    if (request.url().startsWith(`${origin}/`)) return route.continue();
    let isFromPopup = false;
    try {
      isFromPopup = request.frame().page() !== page;
    } catch {
      isFromPopup = false;
    }
    // A popup opened by clicking a link is the person's choice; it lands on an inert page.
    if (isFromPopup)
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>popup</title>' });
    offOrigin.push(request.url());
    return route.abort();
  });
  await context.addInitScript(() => {
    const calls: string[] = [];
    Object.defineProperty(window, 'xssCalls', { value: calls });
    for (const name of ['alert', 'confirm', 'prompt', 'print', 'open'] as const) {
      Object.defineProperty(window, name, {
        value: (...args: unknown[]) => void calls.push(`${name}(${args.map(String).join(',')})`),
      });
    }
    document.write = (...args: string[]) => void calls.push(`document.write(${args.join(',')})`);
    document.writeln = (...args: string[]) => void calls.push(`document.writeln(${args.join(',')})`);
    (window as unknown as { xssSentinel: string }).xssSentinel = 'untouched';
  });
  await openDemo(page);
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  await page.evaluate(async (count) => {
    const mounts: Record<string, unknown> = {};
    for (let index = 0; index < count; index += 1) {
      const container = document.createElement('div');
      container.id = `xss-${index}`;
      document.body.append(container);
      const mounted = window.AgentChat!.mount(container, { endpoint: '/api/agent' });
      await mounted.ready;
      mounts[container.id] = mounted;
    }
    Object.assign(window, { xssMounts: mounts });
  }, WORKERS);
  for (let index = 0; index < WORKERS; index += 1) await page.evaluate(watchIntermediateRenders, `xss-${index}`);

  const results = new Map<string, { status: string; failures: InvariantFailures }>();
  // Longest first: `/echo` streams 4 characters per delta, so the 10,000-character entries set the pace.
  const queue = [...echoed].sort((a, b) => b.markdown.length - a.markdown.length);
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, index) => {
      const containerId = `xss-${index}`;
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        const status = await echoThrough(page, containerId, entry.markdown);
        results.set(entry.id, { status, failures: await page.evaluate(inspectLastAnswer, containerId) });
      }
    }),
  );

  // LINK_SAFE: every link opens a new browsing context with no opener.
  const openers: string[] = [];
  for (const entry of echoed.filter((item) => item.must.includes('LINK_SAFE'))) {
    await echoThrough(page, 'xss-0', entry.markdown);
    const links = page.locator('#xss-0 agent-chat [part~="assistant-message"]').last().locator('a[href]');
    for (let index = 0; index < (await links.count()); index += 1) {
      const [popup] = await Promise.all([page.waitForEvent('popup'), links.nth(index).click()]);
      if ((await popup.evaluate(() => window.opener)) !== null) openers.push(entry.id);
      await popup.close();
    }
  }

  // NO_CRASH: the widget still answers after the whole corpus.
  expect(await echoThrough(page, 'xss-0', 'control message')).toBe('completed');
  await expect(page.locator('#xss-0 agent-chat [part~="assistant-message"]').last()).toHaveText(/control message/);

  const calls = await page.evaluate(() => (window as unknown as { xssCalls: string[] }).xssCalls);
  const sentinel = await page.evaluate(() => (window as unknown as { xssSentinel: string }).xssSentinel);
  const streamViolations = await page.evaluate(
    () => (window as unknown as { xssStreamViolations?: string[] }).xssStreamViolations ?? [],
  );
  const summary: Record<string, { checked: number; passed: number }> = {};
  const failed: Array<{ id: string; status: string; failures: InvariantFailures }> = [];
  for (const entry of echoed) {
    const result = results.get(entry.id)!;
    for (const code of entry.must.filter((name) => JUDGED.includes(name))) {
      const item = (summary[code] ??= { checked: 0, passed: 0 });
      item.checked += 1;
      if (!result.failures[code]?.length) item.passed += 1;
    }
    const relevant = Object.fromEntries(
      Object.entries(result.failures).filter(([code]) => entry.must.includes(code) || code === 'NO_CRASH'),
    );
    if (result.status !== 'completed' || Object.keys(relevant).length > 0)
      failed.push({ id: entry.id, status: result.status, failures: relevant });
  }
  const report = {
    corpus: corpus.length,
    echoed: echoed.length,
    skippedOverLength: corpus.length - echoed.length,
    perInvariant: summary,
    failed,
    streamViolations,
    offOrigin,
    calls,
    navigations,
    openers,
    sentinel,
  };
  await testInfo.attach('xss-corpus-summary.json', {
    body: JSON.stringify(report, null, 2),
    contentType: 'application/json',
  });
  console.log(
    `xss corpus: ${echoed.length}/${corpus.length} entries through /echo; per invariant passed/checked: ${Object.entries(
      summary,
    )
      .map(([code, item]) => `${code} ${item.passed}/${item.checked}`)
      .join(', ')}`,
  );

  expect(failed).toEqual([]);
  expect(streamViolations).toEqual([]);
  expect(offOrigin).toEqual([]);
  expect(calls).toEqual([]);
  expect(navigations).toEqual([]);
  expect(openers).toEqual([]);
  expect(sentinel).toBe('untouched');
});
