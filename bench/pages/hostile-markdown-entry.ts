import { createStreamingMarkdown, type StreamingMarkdownStats } from '../../src/ui/markdown/streaming-markdown.ts';
import { createContainer, nextTask } from './measure-in-page.ts';

/** Options of one streamed hostile input. */
export interface HostileStreamOptions {
  text: string;
  deltaLength: number;
  /** Stop streaming once the timed updates add up to this many ms (a slow input must not take minutes). */
  stopAfterMs: number;
}

/** What one streamed input costs. */
export interface HostileStreamResult {
  /** Each update's duration in ms, with the style and layout it forces. */
  durations: number[];
  finishMs: number;
  /** Characters streamed before the run stopped (the whole text unless `stopAfterMs` cut it). */
  streamed: number;
  tailRenders: number;
  blocksOverBudget: number;
  /** What the slowest update did: rendered the tail, finished blocks, went over budget, or nothing. */
  worstKind: string;
}

/** The page API the Node side drives with `page.evaluate`. */
export interface HostileMarkdownPage {
  run(options: HostileStreamOptions): Promise<HostileStreamResult>;
}

declare global {
  var hostileMarkdownPage: HostileMarkdownPage;
}

/** What one update did, from the renderer's counters before and after it. */
function describeUpdate(before: StreamingMarkdownStats, after: StreamingMarkdownStats, container: Element): string {
  if (after.blocksOverBudget > before.blocksOverBudget) return 'went over budget';
  if (after.blocksFinalized > before.blocksFinalized) return 'finished blocks';
  if (after.tailRenders === before.tailRenders) return 'nothing';
  return container.querySelector('.ac-tail > .ac-plain') ? 'appended escaped text' : 'rendered the tail';
}

globalThis.hostileMarkdownPage = {
  async run({ text, deltaLength, stopAfterMs }) {
    const container = createContainer();
    // Driven as the widget's Markdown body drives it: update(fullText) per delta, then finish().
    const renderer = createStreamingMarkdown(container);
    const durations: number[] = [];
    let total = 0;
    let streamed = 0;
    let worst = 0;
    let worstKind = 'nothing';
    while (streamed < text.length && total < stopAfterMs) {
      streamed = Math.min(text.length, streamed + deltaLength);
      await nextTask();
      const before = renderer.stats;
      const started = performance.now();
      renderer.update(text.slice(0, streamed));
      void container.offsetHeight;
      const duration = performance.now() - started;
      durations.push(duration);
      total += duration;
      if (duration > worst) {
        worst = duration;
        worstKind = describeUpdate(before, renderer.stats, container);
      }
    }
    await nextTask();
    const started = performance.now();
    renderer.finish();
    void container.offsetHeight;
    const finishMs = performance.now() - started;
    const { tailRenders, blocksOverBudget } = renderer.stats;
    return {
      durations,
      finishMs,
      streamed,
      tailRenders,
      blocksOverBudget,
      worstKind: finishMs > worst ? 'finish' : worstKind,
    };
  },
};
