import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import type { PageRunResult } from './pages/measure-in-page.ts';
import type { OursResult } from './pages/stream-render-entry.ts';
import { buildPageScript } from './support/build-page-script.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatRatio, formatTable } from './support/format-table.ts';
import { generateMarkdown } from './support/generate-markdown.ts';
import { openBenchPage } from './support/open-bench-page.ts';
import { summarizeDurations, type DurationSummary } from './support/summarize-durations.ts';

// `npm run bench:stream-render`: one assistant message streamed in 4-character deltas at 10k, 50k
// and 200k characters of varied Markdown, rendered in headless Chromium two ways in the same run:
// ours (the streaming renderer, one update per delta) and naive (marked → DOMPurify → innerHTML of
// the whole text per delta). The last line is the figure.

const LENGTHS = readLengths();
const DELTA_LENGTH = 4;
/** Naive runs every delta up to this many; beyond, it runs this many deltas spread evenly. */
const NAIVE_SAMPLES = 250;

interface Measured {
  summary: DurationSummary;
  /** Estimated total of all updates (exact when every delta ran). */
  total: number;
  busy: number;
  longTasks: number;
  timed: number;
}

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const script = await buildPageScript({ rootDir, entry: 'bench/pages/stream-render-entry.ts' });
console.log(describeMachine());
const browser = await chromium.launch(chromiumLaunchOptions());
const bench = await openBenchPage(browser, script);

// Warm the JIT for both ways so the first measured length is not charged for compilation.
const warmup = generateMarkdown({ length: 5_000, seed: 99 });
await runOurs(warmup);
await runNaive(warmup, 100);

const rows: string[][] = [];
const results = new Map<
  number,
  {
    length: number;
    ours: Measured & { finishMs: number; durations: number[]; scriptDurations: number[] };
    naive: Measured;
  }
>();
let isSampled = false;
for (const length of LENGTHS) {
  const text = generateMarkdown({ length, seed: length });
  const deltas = Math.ceil(length / DELTA_LENGTH);
  const ours = await runOurs(text);
  const naive = await runNaive(text, Math.min(NAIVE_SAMPLES, deltas));
  isSampled ||= naive.timed < deltas;
  results.set(length, { length, ours, naive });
  const ratio = naive.total / ours.total;
  rows.push(row(`${label(length)} ours`, deltas, ours, '', `finish ${formatMs(ours.finishMs)}`));
  rows.push(
    row(
      `${label(length)} naive`,
      deltas,
      naive,
      formatRatio(ratio),
      naive.timed < deltas ? `sampled ${naive.timed}/${deltas} deltas, totals extrapolated` : 'every delta',
    ),
  );
}
await browser.close();

console.log(
  `One message in ${DELTA_LENGTH}-character deltas; ours updates once per delta (the widget coalesces to once per animation frame, so it does fewer).`,
);
console.log(
  'Per update = the update call plus the style and layout it forces (offsetHeight); main thread busy = CDP TaskDuration during the run (adds paint, GC).',
);
console.log(
  formatTable(
    [
      'message',
      'deltas',
      'updates total',
      'main thread busy',
      'p50',
      'p99',
      'max',
      'long tasks >50ms',
      'naive/ours',
      'note',
    ],
    rows,
  ),
);
if (isSampled) {
  console.log(
    `NOTE: naive re-renders the whole text per delta (O(n²)); where it is marked sampled it ran only ${NAIVE_SAMPLES} deltas evenly spread along the message, ` +
      'and its totals and long-task counts are those samples scaled to every delta (its p50/p99/max are of the samples).',
  );
}

const small = results.get(LENGTHS[0] as number);
const large = results.get(LENGTHS.at(-1) as number);
if (!small || !large) throw new Error('missing results');
const tenth = Math.floor(large.ours.durations.length / 10);
const p50Of = (durations: number[]): string => formatMs(summarizeDurations(durations).p50);
console.log(
  `ours per delta vs length: p50 ${formatMs(small.ours.summary.p50)} at ${label(small.length)} vs ${formatMs(large.ours.summary.p50)} at ${label(large.length)}; ` +
    `within the ${label(large.length)} message, first tenth vs last tenth: update p50 ${p50Of(large.ours.durations.slice(0, tenth))} vs ${p50Of(large.ours.durations.slice(-tenth))}, ` +
    `of which the renderer's script ${p50Of(large.ours.scriptDurations.slice(0, tenth))} vs ${p50Of(large.ours.scriptDurations.slice(-tenth))} (the rest is the browser's style and layout)`,
);
console.log(
  `stream-render: at ${label(large.length)} characters ours is ${formatRatio(large.naive.total / large.ours.total)} cheaper than naive in total ` +
    `(${formatMs(large.ours.total)} vs ${isSampled ? '~' : ''}${formatMs(large.naive.total)}), our p99 update is ${formatMs(large.ours.summary.p99)} (target ≥ 50×, < 4 ms)`,
);

/** `--lengths 10000,50000` runs other lengths (the first and last are compared). */
function readLengths(): number[] {
  const index = process.argv.indexOf('--lengths');
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  return value ? value.split(',').map(Number) : [10_000, 50_000, 200_000];
}

function label(length: number): string {
  return `${(length / 1000).toFixed(0)}k`;
}

function row(name: string, deltas: number, measured: Measured, ratio: string, note: string): string[] {
  const approx = measured.timed < deltas ? '~' : '';
  return [
    name,
    deltas.toLocaleString('en-US'),
    `${approx}${formatMs(measured.total)}`,
    `${approx}${formatMs(measured.busy)}`,
    formatMs(measured.summary.p50),
    formatMs(measured.summary.p99),
    formatMs(measured.summary.max),
    `${approx}${measured.longTasks.toLocaleString('en-US')}`,
    ratio,
    note,
  ];
}

async function runOurs(
  text: string,
): Promise<Measured & { finishMs: number; durations: number[]; scriptDurations: number[] }> {
  const before = await bench.readTaskSeconds();
  const result: OursResult = await bench.page.evaluate((options) => globalThis.streamRenderPage.runOurs(options), {
    text,
    deltaLength: DELTA_LENGTH,
  });
  const busy = ((await bench.readTaskSeconds()) - before) * 1000;
  const summary = summarizeDurations(result.durations);
  return {
    summary,
    total: summary.total + result.finishMs,
    busy,
    longTasks: result.longTasks.length,
    timed: result.durations.length,
    finishMs: result.finishMs,
    durations: result.durations,
    scriptDurations: result.scriptDurations,
  };
}

async function runNaive(text: string, samples: number): Promise<Measured> {
  const deltas = Math.ceil(text.length / DELTA_LENGTH);
  // Stratified: sample j stands for the deltas of the j-th equal slice, taken at the slice's middle.
  const indices = Array.from({ length: samples }, (_, index) => Math.floor(((index + 0.5) * deltas) / samples));
  const before = await bench.readTaskSeconds();
  const result: PageRunResult = await bench.page.evaluate((options) => globalThis.streamRenderPage.runNaive(options), {
    text,
    deltaLength: DELTA_LENGTH,
    indices,
  });
  const busy = ((await bench.readTaskSeconds()) - before) * 1000;
  const scale = deltas / samples;
  const summary = summarizeDurations(result.durations);
  return {
    summary,
    total: summary.total * scale,
    busy: busy * scale,
    longTasks: Math.round(result.longTasks.length * scale),
    timed: samples,
  };
}
