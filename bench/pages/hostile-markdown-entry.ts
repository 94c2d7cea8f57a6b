import type { SnapshotMessage } from '../../src/core/index.ts';
import '../../src/define.ts';
import { createStreamingMarkdown, type StreamingMarkdownStats } from '../../src/ui/markdown/streaming-markdown.ts';
import { FakeAgentClient } from '../../src/ui/test-support/fake-agent-client.ts';
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
  /** The longest task the page reported (PerformanceObserver 'longtask', tasks of 50 ms and more) in ms; 0 when none. */
  longestTask: number;
}

/** Options of one hostile input streamed through the real widget. */
export interface WidgetStreamOptions {
  text: string;
  /** Updates of the answer while it streams, one per frame, before it finishes. */
  updates: number;
}

/** The longest tasks (PerformanceObserver 'longtask', 50 ms and more) in the widget, in ms; 0 when none. */
export interface WidgetStreamResult {
  /** While the answer streamed. */
  streaming: number;
  /** From the answer's last state (complete) until two frames later. */
  finish: number;
}

/** The page API the Node side drives with `page.evaluate`. */
export interface HostileMarkdownPage {
  run(options: HostileStreamOptions): Promise<HostileStreamResult>;
  /** Streams the text as the answer of a fresh `<agent-chat>` (a fake client's states), then finishes it. */
  runInWidget(options: WidgetStreamOptions): Promise<WidgetStreamResult>;
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

/** Collects the page's long tasks from now until `stop`, which returns them (start time and duration, ms). */
function observeLongTasks(): { stop(): Promise<PerformanceEntry[]> } {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ type: 'longtask' });
  return {
    async stop() {
      // A long task is reported after it ends: give the last one a task to be delivered in.
      await nextTask();
      entries.push(...observer.takeRecords());
      observer.disconnect();
      return entries;
    },
  };
}

function longest(entries: PerformanceEntry[]): number {
  return Math.max(0, ...entries.map((entry) => entry.duration));
}

function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

globalThis.hostileMarkdownPage = {
  async run({ text, deltaLength, stopAfterMs }) {
    const longTasks = observeLongTasks();
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
      longestTask: longest(await longTasks.stop()),
    };
  },
  async runInWidget({ text, updates }) {
    const client = new FakeAgentClient();
    const element = document.createElement('agent-chat');
    element.locale = 'en';
    element.theme = 'light';
    element.client = client;
    document.body.append(element);
    client.emit({ sessionId: 'ses-bench', connection: 'idle', messages: [] });
    await element.updateComplete;
    await nextFrame();
    const runId = 'run-hostile';
    const question: SnapshotMessage = { messageId: 'u1', role: 'user', content: 'Go', status: 'complete', runId };
    const answer = (content: string, status: SnapshotMessage['status']): SnapshotMessage => ({
      messageId: 'a1',
      role: 'assistant',
      content,
      status,
      runId,
    });
    const longTasks = observeLongTasks();
    const step = Math.ceil(text.length / updates);
    for (let end = step; end < text.length; end += step) {
      client.emit({
        run: { runId, status: 'running', lastSeq: end },
        connection: 'streaming',
        messages: [question, answer(text.slice(0, end), 'streaming')],
      });
      await nextFrame();
    }
    // The finish gets a task of its own, so its long task starts after this mark.
    const finishedAt = performance.now();
    await nextTask();
    // As the client publishes a finished answer: the whole text, complete, and the run over.
    client.emit({
      run: { runId, status: 'completed', lastSeq: text.length },
      connection: 'idle',
      messages: [question, answer(text, 'complete')],
    });
    await nextFrame();
    await nextFrame();
    const entries = await longTasks.stop();
    element.remove();
    client.dispose();
    return {
      streaming: longest(entries.filter((entry) => entry.startTime < finishedAt)),
      finish: longest(entries.filter((entry) => entry.startTime >= finishedAt)),
    };
  },
};
