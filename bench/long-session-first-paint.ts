import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import type { BootstrapResponse, SessionMessagesResponse, SnapshotMessage } from '../src/core/protocol.ts';
import { createRunEngine } from '../src/server/agent-loop/create-run-engine.ts';
import { createAgentHandler } from '../src/server/create-agent-handler.ts';
import { createScriptedModel } from '../src/server/models/scripted-model.ts';
import { openSqliteStorage } from '../src/server/storage/sqlite-storage.ts';
import { seedSession, type SeededReply } from '../src/server/storage/test-support/seed-session.ts';
import type { FirstPaintResult, OlderPageResult } from './pages/first-paint-entry.ts';
import { buildPageScript } from './support/build-page-script.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatRatio, formatTable } from './support/format-table.ts';
import { generateMarkdown } from './support/generate-markdown.ts';

// `npm run bench:long-session-first-paint`: a session of 5,000 settled messages, seeded into the
// real server's SQLite storage (500 turns of 10 messages: a question, then reasoning and Markdown
// answers in turn; 500 runs is the shipped maxRunsPerSession), opened in headless Chromium by the
// widget with `sessionId` (the IIFE's `mount`, as a host page does). It times navigation to the
// first screen of messages painted, as shipped (restore reads the newest page of 50) and, in the
// same run, with every one of the 5,000 messages in the first answer (the history request answered
// with all pages at once, as restore behaved before paging); then scrolling to the top loads older
// pages one by one. Each figure is the median of ROUNDS fresh pages. The last line is the figure.

const TURNS = 500;
const MESSAGES_PER_TURN = 10;
const ROUNDS = 5;
const OLDER_PAGES = 5;
const SESSION_ID = 'ses_bench_first_paint';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
console.log(describeMachine());
const folder = await mkdtemp(join(tmpdir(), 'agent-chat-first-paint-'));
const storage = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
const handler = createAgentHandler({
  storage,
  engine: createRunEngine({ model: createScriptedModel(), log: () => undefined }),
  authenticate: () => ({ id: 'bench-user' }),
  identityFor: (subject) => `idn_${subject.id}`,
  limits: { readsPerMinute: 1_000_000 },
});
const script = await buildPageScript({ rootDir, entry: 'bench/pages/first-paint-entry.ts' });
const html =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>body{margin:0;font:14px/1.5 system-ui,sans-serif}#chat{width:720px}</style></head>' +
  '<body><div id="chat"></div><script src="/page.js"></script></body></html>';
const server = createServer((req, res) => {
  if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
  else if (req.url?.startsWith('/?')) res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  else handler(req, res);
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const headers = { 'agent-protocol': '1', 'x-agent-identity': 'idn_bench-user' };
const boot = (await (await fetch(`${origin}/api/agent/v1/bootstrap`, { headers })).json()) as BootstrapResponse;

const seedStarted = performance.now();
await seedSession(storage, {
  sessionId: SESSION_ID,
  subjectId: 'bench-user',
  agentVersionId: boot.agent.versionId,
  runs: TURNS,
  userTextOf: (turn) => `Question ${turn + 1}: how does step ${turn % 7} work with the others?`,
  repliesOf: (turn) =>
    Array.from({ length: MESSAGES_PER_TURN - 1 }, (_, index): SeededReply => {
      const seed = turn * MESSAGES_PER_TURN + index + 1;
      return index % 2 === 1
        ? { role: 'reasoning', content: `Thinking about part ${index} of question ${turn + 1}: what matters here.` }
        : { role: 'assistant', content: generateMarkdown({ length: 200 + ((seed * 397) % 900), seed }) };
    }),
});
const seedMs = performance.now() - seedStarted;
const allMessages = await readWholeHistory();
console.log(
  `seeded ${allMessages.length.toLocaleString('en-US')} messages (${TURNS} turns) into SQLite in ${formatMs(seedMs)}`,
);

const browser = await chromium.launch(chromiumLaunchOptions());
// One page first, so neither variant is charged for compiling the script.
await (await openSession(browser, false)).close();
const paged: FirstPaintResult[] = [];
const whole: FirstPaintResult[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [isWhole, results] of [
    [false, paged],
    [true, whole],
  ] as const) {
    const opened = await openSession(browser, isWhole);
    results.push(opened.result);
    await opened.close();
  }
}
const olderPages = await loadOlderPages(browser);
await browser.close();
server.close();
await handler.close();
await storage.close();
await rm(folder, { recursive: true, force: true });

const median = (values: number[]): number => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const summarize = (name: string, results: FirstPaintResult[]): string[] => [
  name,
  results[0]?.rows.toLocaleString('en-US') ?? '0',
  (results[0]?.elements ?? 0).toLocaleString('en-US'),
  formatMs(median(results.map((result) => result.mountMs))),
  formatMs(median(results.map((result) => result.bootstrapMs))),
  formatMs(median(results.map((result) => result.historyMs))),
  formatMs(median(results.map((result) => result.paintedMs - result.historyMs))),
  formatMs(median(results.map((result) => result.paintedMs))),
  results.map((result) => formatMs(result.paintedMs)).join(', '),
];
console.log(
  `\nfirst screen: ${ROUNDS} fresh pages each; times from navigation start (medians; the last column is every round)`,
);
console.log(
  formatTable(
    [
      'restore',
      'messages in the DOM',
      'elements',
      'mount called',
      'bootstrap answered',
      'history answered',
      'history → painted',
      'navigation → painted',
      'rounds (navigation → painted)',
    ],
    [
      summarize('newest page (as shipped)', paged),
      summarize(`all ${allMessages.length.toLocaleString('en-US')} at once`, whole),
    ],
  ),
);
console.log('\nolder pages: one jump to the top each, until the frame after the older rows were rendered');
console.log(
  formatTable(
    ['page', 'messages before', 'messages after', 'jump → painted'],
    olderPages.map((page, index) => [
      String(index + 2),
      String(page.rowsBefore),
      String(page.rowsAfter),
      formatMs(page.ms),
    ]),
  ),
);
const pagedMs = median(paged.map((result) => result.paintedMs));
const wholeMs = median(whole.map((result) => result.paintedMs));
const olderMs = median(olderPages.map((page) => page.ms));
console.log(
  `long-session-first-paint: a ${allMessages.length.toLocaleString('en-US')}-message session paints its first screen ${formatMs(pagedMs)} after navigation (target < 500 ms), ` +
    `${formatMs(wholeMs)} with all messages at once (${formatRatio(wholeMs / pagedMs)}); an older page of 50 loads and paints in ${formatMs(olderMs)} (median of ${olderPages.length})`,
);

/** Opens the widget on the seeded session in a fresh page; with `isWhole`, the history request gets every message. */
async function openSession(
  from: Browser,
  isWhole: boolean,
): Promise<{ result: FirstPaintResult; page: Page; close(): Promise<void> }> {
  const context = await from.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  if (isWhole) {
    await page.route('**/api/agent/v1/sessions/*/messages', (route) => {
      const body: SessionMessagesResponse = {
        items: allMessages,
        nextBefore: null,
        activeRun: null,
        toolCalls: [],
        interrupts: [],
      };
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
  }
  await page.goto(`${origin}/?session=${SESSION_ID}`);
  const result = await page.evaluate(() => globalThis.firstPaintPage.painted);
  return { result, page, close: () => context.close() };
}

/** Opens the session as shipped and loads {@link OLDER_PAGES} older pages, one jump to the top each. */
async function loadOlderPages(from: Browser): Promise<OlderPageResult[]> {
  const opened = await openSession(from, false);
  const results: OlderPageResult[] = [];
  for (let index = 0; index < OLDER_PAGES; index += 1) {
    results.push(await opened.page.evaluate(() => globalThis.firstPaintPage.loadOlderPage()));
    // Let the rows settle (content-visibility sizes, the scroll anchor) before the next jump.
    await opened.page.waitForTimeout(200);
  }
  await opened.close();
  return results;
}

/** Every settled message of the seeded session, newest first, read through the server in pages of 200. */
async function readWholeHistory(): Promise<SnapshotMessage[]> {
  const items: SnapshotMessage[] = [];
  let before: string | null = null;
  do {
    const query: string = before === null ? '?limit=200' : `?limit=200&before=${before}`;
    const response = await fetch(`${origin}/api/agent/v1/sessions/${SESSION_ID}/messages${query}`, { headers });
    const page = (await response.json()) as SessionMessagesResponse;
    items.push(...page.items);
    before = page.nextBefore;
  } while (before !== null);
  return items;
}
