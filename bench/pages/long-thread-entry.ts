import type { AgentClient } from '../../src/core/index.ts';
import { isTerminalRunStatus } from '../../src/core/protocol/basics.ts';
import type { AgentChatElement } from '../../src/ui/agent-chat/agent-chat.ts';

// Runs after the shipped `dist/agent-chat.js` (its `window.AgentChat`), so the page measures the built widget and its part files.

/** The first screen of the restored conversation, in ms after navigation start. */
export interface LongThreadPaint {
  /** The frame after the first one with message rows began: they had been painted. */
  paintedMs: number;
  rows: number;
}

/** Main-thread work per streamed update of the answer at the end of the conversation, in ms. */
export interface LongThreadStream {
  /** Per update: from the state change to the end of its task (the widget's Lit update included). */
  taskMs: number[];
  /** Per update: the frame after it, from the frame's start to the end of its rendering (rAF, style, layout, paint). */
  frameMs: number[];
  /** Long tasks (over 50 ms, `longtask` entries) while the answer streamed. */
  longTasks: number[];
  /** Rows in the transcript while it streamed. */
  rows: number;
}

/** What each switch left on screen. */
export interface LongThreadSwitch {
  sessionId: string;
  rows: number;
  /** Rows of the other conversation still in the DOM (none expected). */
  foreignRows: number;
}

/** The page API the Node side drives with `page.evaluate`. */
export interface LongThreadPage {
  painted: Promise<LongThreadPaint>;
  /** Reads every older page until the whole conversation is in the transcript; resolves with its row count. */
  loadAll(): Promise<number>;
  /** Sends `text` (a scripted-model command) and measures each update until the run ends. */
  stream(text: string): Promise<LongThreadStream>;
  /** Starts collecting event-timing entries (interactions) from now on. */
  watchInteractions(): void;
  /** The duration of each interaction since {@link watchInteractions}, in ms (the longest entry per interaction). */
  interactions(): number[];
  /** Switches to `sessionId` and resolves once its rows are painted; rows whose text has `foreignMark` are counted as the other's. */
  switchTo(sessionId: string, foreignMark: string): Promise<LongThreadSwitch>;
}

declare global {
  var longThreadPage: LongThreadPage;
}

function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Resolves at the start of the next task (after the current task's microtasks and, from a rAF callback, after the frame's rendering). */
function nextTask(): Promise<number> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now());
    channel.port2.postMessage(null);
  });
}

function widget(): AgentChatElement {
  const element = document.querySelector<AgentChatElement>('agent-chat');
  if (!element) throw new Error('no <agent-chat> on the page');
  return element;
}

function client(): AgentClient {
  const found = widget().client;
  if (!found) throw new Error('the widget has no client');
  return found as AgentClient;
}

const ROWS = '[part~="message"], [part~="reasoning"], [part~="tool-card"]';

function countRows(): number {
  return widget().shadowRoot?.querySelectorAll(ROWS).length ?? 0;
}

/** Waits for frames until `isDone`, at most `limit` frames. */
async function framesUntil(isDone: () => boolean, limit = 600): Promise<void> {
  for (let frame = 0; frame < limit && !isDone(); frame += 1) await nextFrame();
}

const sessionId = new URLSearchParams(location.search).get('session') ?? undefined;
window.AgentChat?.mount('#chat', { endpoint: '/api/agent', sessionId, locale: 'en', theme: 'light' });

/** An event-timing entry with the fields this TypeScript's DOM types lack. */
interface InteractionEntry extends PerformanceEntry {
  interactionId?: number;
}

let interactionEntries: InteractionEntry[] = [];
let observer: PerformanceObserver | undefined;

globalThis.longThreadPage = {
  painted: (async () => {
    await framesUntil(() => countRows() > 0, 3_000);
    const rows = countRows();
    return { paintedMs: await nextFrame(), rows };
  })(),
  async loadAll() {
    const chat = client();
    while (chat.getState().hasOlderMessages) await chat.loadOlderMessages();
    await widget().updateComplete;
    await nextFrame();
    return countRows();
  },
  async stream(text) {
    const chat = client();
    const taskMs: number[] = [];
    const frameMs: number[] = [];
    const longTasks: number[] = [];
    const longTaskObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    });
    longTaskObserver.observe({ type: 'longtask' });
    let isMeasuring = false;
    let lastLength = -1;
    const unsubscribe = chat.subscribe((state) => {
      const last = state.messages.at(-1);
      const length = last?.role === 'assistant' ? last.content.length : -1;
      if (length === lastLength || isMeasuring) return;
      lastLength = length;
      isMeasuring = true;
      const started = performance.now();
      void (async () => {
        taskMs.push((await nextTask()) - started);
        const frameStart = await nextFrame();
        frameMs.push((await nextTask()) - frameStart);
        isMeasuring = false;
      })();
    });
    const { runId } = await chat.send(text);
    await framesUntil(() => {
      const run = chat.getState().run;
      return run?.runId === runId && isTerminalRunStatus(run.status);
    }, Number.POSITIVE_INFINITY);
    unsubscribe();
    await nextFrame();
    longTaskObserver.disconnect();
    return { taskMs, frameMs, longTasks, rows: countRows() };
  },
  watchInteractions() {
    interactionEntries = [];
    observer?.disconnect();
    observer = new PerformanceObserver((list) => {
      interactionEntries.push(...(list.getEntries() as InteractionEntry[]));
    });
    observer.observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  },
  interactions() {
    const longest = new Map<number, number>();
    for (const entry of interactionEntries) {
      if (!entry.interactionId) continue;
      longest.set(entry.interactionId, Math.max(longest.get(entry.interactionId) ?? 0, entry.duration));
    }
    return [...longest.values()];
  },
  async switchTo(target, foreignMark) {
    const chat = client();
    await chat.switchSession(target);
    await widget().updateComplete;
    await framesUntil(() => countRows() > 0);
    await nextFrame();
    const rows = [...(widget().shadowRoot?.querySelectorAll(ROWS) ?? [])];
    const foreignRows = rows.filter((row) => row.textContent?.includes(foreignMark)).length;
    return { sessionId: target, rows: countRows(), foreignRows };
  },
};
