import '../../embed/index.ts';

/** When the first screen of a restored session was on screen, in ms after navigation start. */
export interface FirstPaintResult {
  /** `mount()` was called (the page's script had loaded and run). */
  mountMs: number;
  /** The bootstrap answer and the session's history answer had arrived (resource timing `responseEnd`). */
  bootstrapMs: number;
  historyMs: number;
  /** The first frame with message rows in the widget began (they were rendered, about to paint). */
  renderedMs: number;
  /** The frame after it began: the rows had been painted. */
  paintedMs: number;
  /** Messages (user, assistant and reasoning) in the widget then. */
  rows: number;
  /** Elements in the widget's shadow root then. */
  elements: number;
}

/** One older page loaded by scrolling to the top. */
export interface OlderPageResult {
  /** From the jump to the top until the frame after the older rows were rendered. */
  ms: number;
  rowsBefore: number;
  rowsAfter: number;
}

/** The page API the Node side reads with `page.evaluate`. */
export interface FirstPaintPage {
  painted: Promise<FirstPaintResult>;
  loadOlderPage(): Promise<OlderPageResult>;
}

declare global {
  var firstPaintPage: FirstPaintPage;
}

function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

function widgetRoot(): ShadowRoot | null {
  return document.querySelector('agent-chat')?.shadowRoot ?? null;
}

function countRows(): number {
  return widgetRoot()?.querySelectorAll('[part~="message"], [part~="reasoning"]').length ?? 0;
}

/** Resolves at the first frame whose rows number more than `count`, with that frame's start time. */
async function frameWithMoreRowsThan(count: number): Promise<number> {
  for (;;) {
    const frameStart = await nextFrame();
    if (countRows() > count) return frameStart;
  }
}

const sessionId = new URLSearchParams(location.search).get('session') ?? undefined;
const mountMs = performance.now();
window.AgentChat?.mount('#chat', { endpoint: '/api/agent', sessionId, locale: 'en', theme: 'light' });

globalThis.firstPaintPage = {
  painted: (async () => {
    const renderedMs = await frameWithMoreRowsThan(0);
    const rows = countRows();
    const elements = widgetRoot()?.querySelectorAll('*').length ?? 0;
    const paintedMs = await nextFrame();
    const answeredAt = (path: string): number => {
      const entries = performance.getEntriesByType('resource');
      const entry = entries.find((timing) => new URL(timing.name).pathname.endsWith(path));
      return entry instanceof PerformanceResourceTiming ? entry.responseEnd : 0;
    };
    const bootstrapMs = answeredAt('/bootstrap');
    const historyMs = answeredAt('/messages');
    return { mountMs, bootstrapMs, historyMs, renderedMs, paintedMs, rows, elements };
  })(),
  async loadOlderPage() {
    const transcript = widgetRoot()?.querySelector('.transcript');
    if (!transcript) throw new Error('the widget has no transcript');
    const rowsBefore = countRows();
    const started = performance.now();
    transcript.scrollTop = 0;
    await frameWithMoreRowsThan(rowsBefore);
    const painted = await nextFrame();
    return { ms: painted - started, rowsBefore, rowsAfter: countRows() };
  },
};
