import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import type { RestoreResult, ScrollResult, StreamResult } from './pages/long-session-entry.ts';
import { buildPageScript } from './support/build-page-script.ts';
import { describeMachine } from './support/describe-machine.ts';
import { formatMs, formatRatio, formatTable } from './support/format-table.ts';
import { generateMarkdown } from './support/generate-markdown.ts';
import { openBenchPage } from './support/open-bench-page.ts';
import { summarizeDurations } from './support/summarize-durations.ts';

// `npm run bench:long-session`: the widget (<agent-chat>, bound to the fake client) restores a
// session of 500 finished messages (mixed Markdown, tool cards) in headless Chromium: time to the
// first painted frame, JS heap, scroll frame times; then one more answer streams in 4-character
// deltas (one per frame) and its per-update cost is compared with the same answer in an empty
// session. The last line is the figure.

const MESSAGES = 500;
// `--css-experiment` measures the candidate layout fix described in docs/benchmarks.md (not shipped).
const mountOptions = { withCssExperiment: process.argv.includes('--css-experiment') };
const DELTA_LENGTH = 4;
const ANSWER_LENGTH = 2_000;
const SCROLL_FRAMES = 300;
const SCROLL_STEP_PX = 120;

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const script = await buildPageScript({ rootDir, entry: 'bench/pages/long-session-entry.ts' });
console.log(describeMachine());
const browser = await chromium.launch(chromiumLaunchOptions());
const bench = await openBenchPage(browser, script);
const answer = generateMarkdown({ length: ANSWER_LENGTH, seed: 7 });

// Warm the JIT with a short stream so the empty-session baseline is not charged for compilation.
await bench.page.evaluate((options) => globalThis.longSessionPage.mount(options), mountOptions);
await stream(generateMarkdown({ length: 600, seed: 3 }));
await bench.page.evaluate(() => globalThis.longSessionPage.unmount());

await bench.page.evaluate((options) => globalThis.longSessionPage.mount(options), mountOptions);
const empty = await stream(answer);
await bench.page.evaluate(() => globalThis.longSessionPage.unmount());

await bench.page.evaluate((options) => globalThis.longSessionPage.mount(options), mountOptions);
const heapBefore = await bench.readHeapBytes();
const restore: RestoreResult = await bench.page.evaluate(
  (count) => globalThis.longSessionPage.restore(count),
  MESSAGES,
);
const heapAfter = await bench.readHeapBytes();
const scroll: ScrollResult = await bench.page.evaluate((options) => globalThis.longSessionPage.scroll(options), {
  frames: SCROLL_FRAMES,
  step: SCROLL_STEP_PX,
});
const long = await stream(answer);
await browser.close();

const heapMb = (heapAfter - heapBefore) / 1_000_000;
if (mountOptions.withCssExperiment) console.log('WITH THE CSS EXPERIMENT (a candidate fix, not the shipped styles):');
console.log(
  `restore: ${restore.messages} messages and ${restore.toolCalls} tool cards set on the fake client at once (as restore() does), one widget`,
);
console.log(
  formatTable(
    [
      'restore',
      'messages',
      'tool cards',
      'elements',
      'transcript height',
      'render committed',
      'first frame painted',
      'JS heap (after GC)',
    ],
    [
      [
        `${MESSAGES} messages`,
        String(restore.messages),
        String(restore.toolCalls),
        restore.elements.toLocaleString('en-US'),
        `${restore.transcriptHeight.toLocaleString('en-US')} px`,
        formatMs(restore.renderMs),
        formatMs(restore.paintMs),
        `+${heapMb.toFixed(1)} MB`,
      ],
    ],
  ),
);
const frames = summarizeDurations(scroll.intervals);
const slow = scroll.intervals.filter((interval) => interval > 25).length;
console.log(
  `\nscroll: the transcript scrolled up ${SCROLL_STEP_PX} px per frame for ${SCROLL_FRAMES} frames (${scroll.distance.toLocaleString('en-US')} px); frame-to-frame intervals (60 Hz = 16.7 ms)`,
);
console.log(
  formatTable(
    ['scroll', 'frames', 'p50', 'p99', 'max', 'frames > 25 ms'],
    [
      [
        'transcript',
        String(frames.count),
        formatMs(frames.p50),
        formatMs(frames.p99),
        formatMs(frames.max),
        String(slow),
      ],
    ],
  ),
);
console.log(
  `\nstream: one ${ANSWER_LENGTH.toLocaleString('en-US')}-character answer in ${DELTA_LENGTH}-character deltas, one delta per frame; per update = Lit update + Markdown flush with layout`,
);
const rows = [
  ['empty session', empty],
  [`${MESSAGES}-message session`, long],
] as const;
console.log(
  formatTable(
    ['session', 'updates', 'Lit p50', 'Markdown p50', 'update p50', 'update mean', 'update p99', 'update max'],
    rows.map(([name, result]) => [
      name,
      String(result.totals.length),
      formatMs(summarizeDurations(result.litMs).p50),
      formatMs(summarizeDurations(result.markdownMs).p50),
      formatMs(summarizeDurations(result.totals).p50),
      formatMs(summarizeDurations(result.totals).total / result.totals.length),
      formatMs(summarizeDurations(result.totals).p99),
      formatMs(summarizeDurations(result.totals).max),
    ]),
  ),
);
const emptyP50 = summarizeDurations(empty.totals).p50;
const longP50 = summarizeDurations(long.totals).p50;
console.log(
  `long-session: ${MESSAGES} messages painted in ${formatMs(restore.paintMs)} (target < 1 s), JS heap +${heapMb.toFixed(1)} MB, scroll p99 frame ${formatMs(frames.p99)}; ` +
    `a streamed update costs ${formatRatio(longP50 / emptyP50)} the empty session's (p50 ${formatMs(longP50)} vs ${formatMs(emptyP50)})`,
);

async function stream(text: string): Promise<StreamResult & { totals: number[] }> {
  const result: StreamResult = await bench.page.evaluate((options) => globalThis.longSessionPage.stream(options), {
    text,
    deltaLength: DELTA_LENGTH,
  });
  return { ...result, totals: result.litMs.map((lit, index) => lit + (result.markdownMs[index] ?? 0)) };
}
