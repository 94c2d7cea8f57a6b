import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import type { BootstrapResponse } from '../src/core/protocol.ts';
import { createRunEngine } from '../src/server/agent-loop/create-run-engine.ts';
import { createAgentHandler } from '../src/server/create-agent-handler.ts';
import { createScriptedModel } from '../src/server/models/scripted-model.ts';
import { openSqliteStorage } from '../src/server/storage/sqlite-storage.ts';
import { seedSession, type SeededReply } from '../src/server/storage/test-support/seed-session.ts';
import type { LongThreadPaint, LongThreadStream, LongThreadSwitch } from './pages/long-thread-entry.ts';
import { buildPageScript } from './support/build-page-script.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatTable } from './support/format-table.ts';
import { generateMarkdown } from './support/generate-markdown.ts';
import { summarizeDurations } from './support/summarize-durations.ts';

// `npm run build && npm run bench:long-thread`: a 2,000-message conversation (500 turns: a question, reasoning, an
// `orders.lookup` tool call, an answer with a fenced code block, a Markdown answer), seeded into
// the real server's SQLite storage and opened by the built widget (`dist/`) with `sessionId` in headless Chromium.
// It prints (1) navigation → first screen painted (median of ROUNDS fresh pages); then, in one
// page, (2) per streamed update of a `/long` answer at the conversation's end, as opened (the
// newest page) and again with every older page read (all 2,000 rows in the transcript), the main-thread time of the update's task and of
// the frame that paints it (p50/p95/max) and any long tasks; (3) typing into the composer: the
// longest interaction (event timing, INP for fewer than 50 interactions); (4) JS heap and DOM
// nodes after each of 10 round trips to another conversation and back (after a forced GC; the long
// one read whole again each time). The last line holds the figures.

const TURNS = 500;
const ROUNDS = 5;
const SWITCHES = 10;
const LONG_ID = 'ses_bench_long_thread';
const OTHER_ID = 'ses_bench_other_thread';
const LONG_MARK = '[long]';
const OTHER_MARK = '[other]';
const TYPED = 'Could you summarize what changed in step four?';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
console.log(describeMachine());
const folder = await mkdtemp(join(tmpdir(), 'agent-chat-long-thread-'));
const storage = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
const handler = createAgentHandler({
  storage,
  // 10 ms between the deltas of `/long` (a quarter of the delay): 100 updates a second.
  engine: createRunEngine({ model: createScriptedModel({ delayMs: 40 }), log: () => undefined }),
  authenticate: () => ({ id: 'bench-user' }),
  identityFor: (subject) => `idn_${subject.id}`,
  // The seed's clock is fixed in the past: keep its sessions from expiring when the streamed run sweeps.
  limits: { readsPerMinute: 1_000_000, runsPerMinute: 1_000_000, sessionIdleTtlSec: 10 * 365 * 24 * 3600 },
});
const distDir = join(rootDir, 'dist');
const shipped = new Map<string, string>();
for (const name of await readdir(distDir).catch(() => [])) {
  if (name.endsWith('.js')) shipped.set(`/${name}`, await readFile(join(distDir, name), 'utf8'));
}
if (!shipped.has('/agent-chat.js')) throw new Error('dist/agent-chat.js is missing: run `npm run build` first');
const script = await buildPageScript({ rootDir, entry: 'bench/pages/long-thread-entry.ts' });
const html =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>body{margin:0;font:14px/1.5 system-ui,sans-serif}#chat{width:720px;height:860px}</style></head>' +
  '<body><div id="chat"></div><script src="/agent-chat.js"></script><script src="/page.js"></script></body></html>';
const server = createServer((req, res) => {
  const file = req.url === '/page.js' ? script : shipped.get(req.url ?? '');
  if (file !== undefined) res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
  else if (req.url?.startsWith('/?')) res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  else handler(req, res);
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const headers = { 'agent-protocol': '1', 'x-agent-identity': 'idn_bench-user' };
const boot = (await (await fetch(`${origin}/api/agent/v1/bootstrap`, { headers })).json()) as BootstrapResponse;

/** A turn of the long conversation: reasoning, a tool call, an answer with code, a Markdown answer. */
const longRepliesOf = (turn: number): SeededReply[] => [
  { role: 'reasoning', content: `Thinking about step ${turn % 7}: which order matters here.` },
  { role: 'tool', content: JSON.stringify({ orderId: `A-${turn}`, status: 'shipped', items: turn % 5 }) },
  {
    role: 'assistant',
    content:
      `Here is step ${turn % 7} as code:\n\n` +
      '```ts\n' +
      `export function step${turn}(input: number[]): number {\n  let total = 0;\n  for (const value of input) total += value * ${turn % 9};\n  return total;\n}\n` +
      '```\n',
  },
  { role: 'assistant', content: generateMarkdown({ length: 200 + ((turn * 397) % 700), seed: turn + 1 }) },
];
const seedStarted = performance.now();
const longIds = await seedSession(storage, {
  sessionId: LONG_ID,
  subjectId: 'bench-user',
  agentVersionId: boot.agent.versionId,
  runs: TURNS,
  userTextOf: (turn) => `${LONG_MARK} Question ${turn + 1}: how does step ${turn % 7} work?`,
  repliesOf: longRepliesOf,
});
await seedSession(storage, {
  sessionId: OTHER_ID,
  subjectId: 'bench-user',
  agentVersionId: boot.agent.versionId,
  runs: 10,
  userTextOf: (turn) => `${OTHER_MARK} Another question ${turn + 1}`,
  repliesOf: (turn) => [{ role: 'assistant', content: generateMarkdown({ length: 400, seed: 1000 + turn }) }],
});
console.log(
  `seeded ${longIds.length.toLocaleString('en-US')} messages and ${TURNS} tool calls (${TURNS} turns) into SQLite in ${formatMs(performance.now() - seedStarted)}`,
);

const browser = await chromium.launch(chromiumLaunchOptions());
// One page first, so the rounds are not charged for compiling the script.
await (await openThread(browser)).close();
const paints: LongThreadPaint[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const opened = await openThread(browser);
  paints.push(await opened.page.evaluate(() => globalThis.longThreadPage.painted));
  await opened.close();
}

const opened = await openThread(browser);
const { page } = opened;
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
/** Used JS heap after a forced GC, and the DOM nodes alive. */
const readMemory = async (): Promise<{ heap: number; nodes: number }> => {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return { heap: usedSize, nodes: metrics.find((metric) => metric.name === 'Nodes')?.value ?? 0 };
};
await page.evaluate(() => globalThis.longThreadPage.painted);
// As opened: only the newest page is in the transcript.
const streamedFresh: LongThreadStream = await page.evaluate(() => globalThis.longThreadPage.stream('/long 6000'));
const loadStarted = performance.now();
const allRows = await page.evaluate(() => globalThis.longThreadPage.loadAll());
console.log(
  `read every older page: ${allRows.toLocaleString('en-US')} rows in the transcript after ${formatMs(performance.now() - loadStarted)}`,
);
const streamed: LongThreadStream = await page.evaluate(() => globalThis.longThreadPage.stream('/long 6000'));

await page.evaluate(() => globalThis.longThreadPage.watchInteractions());
await page.evaluate(() => document.querySelector('agent-chat')?.shadowRoot?.querySelector('textarea')?.focus());
await page.keyboard.type(TYPED, { delay: 40 });
// Event timing entries are delivered after the interaction's next paint.
await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
const interactions = await page.evaluate(() => globalThis.longThreadPage.interactions());

const switches: Array<{ to: LongThreadSwitch; heap: number; nodes: number }> = [];
const before = await readMemory();
for (let round = 0; round < SWITCHES; round += 1) {
  const toOther = await page.evaluate(([id, mark]) => globalThis.longThreadPage.switchTo(id, mark), [
    OTHER_ID,
    LONG_MARK,
  ] as const);
  switches.push({ to: toOther, ...(await readMemory()) });
  const toLong = await page.evaluate(([id, mark]) => globalThis.longThreadPage.switchTo(id, mark), [
    LONG_ID,
    OTHER_MARK,
  ] as const);
  const rows = await page.evaluate(() => globalThis.longThreadPage.loadAll());
  switches.push({ to: { ...toLong, rows }, ...(await readMemory()) });
}
await opened.close();
await browser.close();
server.close();
await handler.close();
await storage.close();
await rm(folder, { recursive: true, force: true });

const median = (values: number[]): number => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], fraction: number): number => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
};
const mb = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

const paintMs = median(paints.map((paint) => paint.paintedMs));
console.log(
  `\nfirst screen: navigation → painted ${formatMs(paintMs)} (median of ${ROUNDS}; rounds ${paints.map((paint) => formatMs(paint.paintedMs)).join(', ')}), ${paints[0]?.rows ?? 0} rows`,
);
const freshPerUpdate = streamedFresh.taskMs.map((ms, index) => ms + (streamedFresh.frameMs[index] ?? 0));
console.log(
  `\nstreaming /long as opened (${streamedFresh.rows} rows): ${streamedFresh.taskMs.length} updates, per update (task + frame) p50 ${formatMs(summarizeDurations(freshPerUpdate).p50)}, p95 ${formatMs(percentile(freshPerUpdate, 0.95))}, max ${formatMs(summarizeDurations(freshPerUpdate).max)}; ${streamedFresh.longTasks.length} long tasks`,
);
const perUpdate = streamed.taskMs.map((ms, index) => ms + (streamed.frameMs[index] ?? 0));
const task = summarizeDurations(streamed.taskMs);
const frame = summarizeDurations(streamed.frameMs);
const both = summarizeDurations(perUpdate);
console.log(
  `\nstreaming /long at the end of ${streamed.rows.toLocaleString('en-US')} rows: ${streamed.taskMs.length} updates measured`,
);
console.log(
  formatTable(
    ['per update', 'p50', 'p95', 'max'],
    [
      [
        'its task (state change → task end)',
        formatMs(task.p50),
        formatMs(percentile(streamed.taskMs, 0.95)),
        formatMs(task.max),
      ],
      [
        'the frame after it (rAF → rendered)',
        formatMs(frame.p50),
        formatMs(percentile(streamed.frameMs, 0.95)),
        formatMs(frame.max),
      ],
      ['both', formatMs(both.p50), formatMs(percentile(perUpdate, 0.95)), formatMs(both.max)],
    ],
  ),
);
console.log(
  `long tasks (> 50 ms) while streaming: ${streamed.longTasks.length ? streamed.longTasks.map(formatMs).join(', ') : 'none'}`,
);
const inp = Math.max(0, ...interactions);
console.log(
  `\ntyping ${TYPED.length} characters into the composer: ${interactions.length} interactions of 16 ms or more; the longest ${interactions.length ? formatMs(inp) : '< 16 ms'}`,
);
console.log(
  `\nswitches (heap and DOM nodes after a forced GC; before the first: ${mb(before.heap)}, ${before.nodes} nodes)`,
);
console.log(
  formatTable(
    ['switch', 'to', 'rows', 'rows of the other', 'JS heap', 'DOM nodes'],
    switches.map((entry, index) => [
      String(index + 1),
      entry.to.sessionId === LONG_ID ? 'long (read whole)' : 'other',
      entry.to.rows.toLocaleString('en-US'),
      String(entry.to.foreignRows),
      mb(entry.heap),
      String(entry.nodes),
    ]),
  ),
);
const onLong = switches.filter((entry) => entry.to.sessionId === LONG_ID);
const heapGrowth = (onLong.at(-1)?.heap ?? 0) - (onLong[0]?.heap ?? 0);
console.log(
  `long-thread: a ${longIds.length.toLocaleString('en-US')}-message conversation with ${TURNS} tool calls paints its first screen ${formatMs(paintMs)} after navigation (target ≤ 300 ms); ` +
    `streaming at its end costs p95 ${formatMs(percentile(freshPerUpdate, 0.95))} per update as opened, ${formatMs(percentile(perUpdate, 0.95))} with all rows loaded (task + frame; target ≤ 16 ms), ${streamed.longTasks.length} long tasks; ` +
    `typing INP ${interactions.length ? formatMs(inp) : '< 16 ms'} (target ≤ 100 ms); heap on the long one after switch 2 → ${SWITCHES * 2}: ${mb(onLong[0]?.heap ?? 0)} → ${mb(onLong.at(-1)?.heap ?? 0)} (${heapGrowth >= 0 ? '+' : '−'}${mb(Math.abs(heapGrowth))})`,
);

/** Opens the widget on the long conversation in a fresh page. */
async function openThread(from: Browser): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await from.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`page console: ${message.text()}`);
  });
  await page.goto(`${origin}/?session=${LONG_ID}`);
  return { page, close: () => context.close() };
}
