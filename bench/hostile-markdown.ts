import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import type { HostileStreamResult, WidgetStreamResult } from './pages/hostile-markdown-entry.ts';
import { buildPageScript } from './support/build-page-script.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatTable } from './support/format-table.ts';
import { generateHostileInputs, type HostileInput } from './support/generate-hostile-markdown.ts';
import { openBenchPage } from './support/open-bench-page.ts';
import { summarizeDurations } from './support/summarize-durations.ts';

// `npm run bench:hostile-markdown`: streams pathological Markdown (emphasis runs and mixes, nested
// quotes, lists and brackets, long tables, backtick runs, entity runs, combining marks, and the
// corpus's denial-of-service entries) in 4-character deltas through the streaming renderer in
// headless Chromium, and checks each against the budget: at most 2 s of main-thread work per
// 20,000 characters and no update over 50 ms. Then each input streams again as the answer of a
// real `<agent-chat>` (a fake client's states, one update per frame) and finishes, and the longest
// task the page reports (PerformanceObserver 'longtask') while it streams and when it finishes is
// checked against 200 ms. The last line is the figure.

const DELTA_LENGTH = 4;
const BUDGET_MS_PER_20K = 2_000;
const BUDGET_UPDATE_MS = 50;
/** No task, in the renderer alone or in the widget, may take longer than this. */
const BUDGET_TASK_MS = 200;
/** Updates of a streamed answer in the widget, one per frame, before it finishes. */
const WIDGET_UPDATES = 100;
const LENGTH = readNumber('--length', 20_000);
/** A run stops once its updates add up to this (so an input far over budget does not take minutes). */
const STOP_AFTER_MS = readNumber('--stop-after-ms', 60_000);

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** `--only emphasis` runs only the inputs whose family or name contains that text. */
const ONLY = readText('--only');
const inputs = [...generateHostileInputs(LENGTH), ...(await readCorpusInputs())].filter(
  (input) => ONLY === undefined || `${input.family}: ${input.name}`.includes(ONLY),
);
const script = await buildPageScript({ rootDir, entry: 'bench/pages/hostile-markdown-entry.ts' });
console.log(describeMachine());
const browser = await chromium.launch(chromiumLaunchOptions());
const bench = await openBenchPage(browser, script);
// Warm up every code path the inputs take (2,000 characters of each), so the first input is not charged for compilation.
for (const input of generateHostileInputs(2_000)) {
  await run({ ...input, text: input.text.slice(0, 2_000) });
}
await runInWidget({ family: 'warm-up', name: 'widget', text: generateHostileInputs(2_000)[0]?.text ?? '' });

const rows: string[][] = [];
let worstPer20k = { value: 0, name: '' };
let worstUpdate = { value: 0, name: '' };
let worstTask = { value: 0, name: '' };
for (const input of inputs) {
  const before = await bench.readTaskSeconds();
  const result = await run(input);
  const busy = ((await bench.readTaskSeconds()) - before) * 1000;
  const total = result.durations.reduce((sum, duration) => sum + duration, 0) + result.finishMs;
  const per20k = (total * 20_000) / result.streamed;
  const max = Math.max(result.finishMs, ...result.durations);
  const { p99 } = summarizeDurations(result.durations);
  const slow = result.durations.filter((duration) => duration > BUDGET_UPDATE_MS).length;
  const widget = await runInWidget(input);
  const longestTask = Math.max(result.longestTask, widget.streaming, widget.finish);
  const isWithin = per20k <= BUDGET_MS_PER_20K && max <= BUDGET_UPDATE_MS && longestTask <= BUDGET_TASK_MS;
  if (per20k > worstPer20k.value) worstPer20k = { value: per20k, name: input.name };
  if (max > worstUpdate.value) worstUpdate = { value: max, name: input.name };
  if (longestTask > worstTask.value) worstTask = { value: longestTask, name: input.name };
  rows.push([
    `${input.family}: ${input.name}`,
    result.streamed < input.text.length
      ? `${result.streamed.toLocaleString('en-US')} of ${input.text.length.toLocaleString('en-US')}`
      : input.text.length.toLocaleString('en-US'),
    formatMs(total),
    formatMs(busy),
    formatMs(per20k),
    formatMs(max),
    formatMs(p99),
    slow.toLocaleString('en-US'),
    formatMs(result.finishMs),
    result.worstKind,
    result.tailRenders.toLocaleString('en-US'),
    result.blocksOverBudget.toLocaleString('en-US'),
    formatLongTask(result.longestTask),
    formatLongTask(widget.streaming),
    formatLongTask(widget.finish),
    isWithin ? 'within' : 'OVER',
  ]);
}
await browser.close();

console.log(
  `Each input streamed in ${DELTA_LENGTH}-character deltas, one update per delta, then finish(); a run stops after ${formatMs(STOP_AFTER_MS)} of updates ("N of M" characters).`,
);
console.log(
  'total = the updates and finish() with the style and layout each forces; busy = CDP TaskDuration over the run (adds paint, GC); per 20k = total scaled to 20,000 characters; note = what the worst update did; > 50 ms = updates over the per-update budget.',
);
console.log(
  `longest task = the longest task of the run (PerformanceObserver 'longtask'; "-" = none of 50 ms or more); widget streaming and widget finish = the same in <agent-chat>, the answer streamed in ${WIDGET_UPDATES} updates, one per frame, then finished.`,
);
console.log(
  formatTable(
    [
      'input',
      'characters',
      'total',
      'busy',
      'per 20k',
      'worst update',
      'p99',
      '> 50 ms',
      'finish',
      'note',
      'tail renders',
      'over budget',
      'longest task',
      'widget streaming',
      'widget finish',
      'budget',
    ],
    rows,
  ),
);
console.log(
  `hostile-markdown: worst total ${formatMs(worstPer20k.value)} per 20,000 characters (${worstPer20k.name}), worst update ${formatMs(worstUpdate.value)} (${worstUpdate.name}), longest task ${formatLongTask(worstTask.value)} (${worstTask.name || 'none of 50 ms or more'}); budget ${formatMs(BUDGET_MS_PER_20K)}, ${formatMs(BUDGET_UPDATE_MS)} and ${formatMs(BUDGET_TASK_MS)}`,
);

async function run(input: HostileInput): Promise<HostileStreamResult> {
  return bench.page.evaluate((options) => globalThis.hostileMarkdownPage.run(options), {
    text: input.text,
    deltaLength: DELTA_LENGTH,
    stopAfterMs: STOP_AFTER_MS,
  });
}

async function runInWidget(input: HostileInput): Promise<WidgetStreamResult> {
  return bench.page.evaluate((options) => globalThis.hostileMarkdownPage.runInWidget(options), {
    text: input.text,
    updates: WIDGET_UPDATES,
  });
}

/** A long task's duration, or "-" when the page reported none (no task of 50 ms or more). */
function formatLongTask(ms: number): string {
  return ms === 0 ? '-' : formatMs(ms);
}

/** The corpus's denial-of-service entries of 10,000 characters or more, cut to `LENGTH`. */
async function readCorpusInputs(): Promise<HostileInput[]> {
  const text = await readFile(resolve(rootDir, 'test/fixtures/xss-corpus.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id: string; category: string; markdown: string })
    .filter((entry) => entry.category === 'dos' && entry.markdown.length >= 10_000)
    .map((entry) => ({ family: 'corpus', name: entry.id, text: entry.markdown.slice(0, LENGTH) }));
}

function readText(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function readNumber(flag: string, fallback: number): number {
  const index = process.argv.indexOf(flag);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
