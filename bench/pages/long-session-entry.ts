import type { ClientState, SnapshotMessage, SnapshotToolCall } from '../../src/core/index.ts';
import '../../src/define.ts';
import type { AgentChatElement } from '../../src/ui/agent-chat/agent-chat.ts';
import { FakeAgentClient } from '../../src/ui/test-support/fake-agent-client.ts';
import { generateMarkdown } from '../support/generate-markdown.ts';
import { nextTask } from './measure-in-page.ts';

/** What restoring the session cost. */
export interface RestoreResult {
  /** From the client's state change to the widget's render committed (Lit update, Markdown rendered). */
  renderMs: number;
  /** From the state change to the first frame painted after it. */
  paintMs: number;
  messages: number;
  toolCalls: number;
  /** Elements inside the widget's shadow root. */
  elements: number;
  transcriptHeight: number;
}

/** Frame-to-frame intervals while the transcript scrolls, in ms. */
export interface ScrollResult {
  intervals: number[];
  distance: number;
}

/** Cost of each streamed delta: the widget's Lit update, then its Markdown flush with layout. */
export interface StreamResult {
  litMs: number[];
  markdownMs: number[];
}

/** The page API the Node side drives with `page.evaluate`. */
export interface LongSessionPage {
  /** Mounts a fresh widget; `withCssExperiment` adds {@link CSS_EXPERIMENT} to its shadow root. */
  mount(options: { withCssExperiment: boolean }): Promise<void>;
  restore(messageCount: number): Promise<RestoreResult>;
  scroll(options: { frames: number; step: number }): Promise<ScrollResult>;
  stream(options: { text: string; deltaLength: number }): Promise<StreamResult>;
  unmount(): void;
}

declare global {
  var longSessionPage: LongSessionPage;
}

/**
 * A candidate fix measured side by side (not shipped): block layout instead of grid for the
 * transcript and for a message's Markdown, and rows off screen skipped by `content-visibility`.
 */
export const CSS_EXPERIMENT = `
.transcript-content { display: block; }
.transcript-content > * + * { margin-top: 12px; }
.transcript-content > * { content-visibility: auto; contain-intrinsic-size: auto 160px; }
.message.user { width: fit-content; margin-left: auto; }
.markdown { display: block; }
`;

let element: AgentChatElement | undefined;
let client: FakeAgentClient | undefined;

function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

function transcript(): HTMLElement {
  const found = element?.shadowRoot?.querySelector<HTMLElement>('.transcript');
  if (!found) throw new Error('the widget has no transcript');
  return found;
}

/** 250 turns: a user question, then an assistant answer of mixed Markdown; every 4th answer made a tool call. */
function createSession(messageCount: number): Pick<ClientState, 'messages' | 'toolCalls'> {
  const messages: SnapshotMessage[] = [];
  const toolCalls: SnapshotToolCall[] = [];
  for (let turn = 0; messages.length < messageCount; turn += 1) {
    const runId = `run-${turn}`;
    messages.push({
      messageId: `u${turn}`,
      role: 'user',
      content: `Question ${turn}: how does the ${turn % 7} step work?`,
      status: 'complete',
      runId,
    });
    if (messages.length === messageCount) break;
    const messageId = `a${turn}`;
    messages.push({
      messageId,
      role: 'assistant',
      content: generateMarkdown({ length: 300 + ((turn * 397) % 1500), seed: turn + 1 }),
      status: 'complete',
      runId,
    });
    if (turn % 4 === 0) {
      toolCalls.push({
        toolCallId: `t${turn}`,
        name: 'search_docs',
        title: 'Search the docs',
        parentMessageId: messageId,
        args: { query: `step ${turn}`, limit: 5 },
        status: 'completed',
        result: {
          messageId: `r${turn}`,
          content: JSON.stringify({ hits: [`doc-${turn}`, `doc-${turn + 1}`], total: 2 }),
        },
      });
    }
  }
  return { messages, toolCalls };
}

globalThis.longSessionPage = {
  async mount({ withCssExperiment }) {
    client = new FakeAgentClient();
    element = document.createElement('agent-chat');
    element.locale = 'en';
    element.theme = 'light';
    element.client = client;
    document.body.append(element);
    await element.updateComplete;
    const root = element.shadowRoot;
    if (withCssExperiment && root) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS_EXPERIMENT);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    }
    await nextFrame();
  },
  async restore(messageCount) {
    if (!element || !client) throw new Error('mount first');
    const session = createSession(messageCount);
    const started = performance.now();
    client.emit({ sessionId: 'ses-bench', connection: 'idle', ...session });
    await element.updateComplete;
    const renderMs = performance.now() - started;
    // Rendering steps run after the frame's animation callbacks; the task after them sees the frame painted.
    await nextFrame();
    await nextTask();
    const paintMs = performance.now() - started;
    return {
      renderMs,
      paintMs,
      messages: session.messages.length,
      toolCalls: session.toolCalls.length,
      elements: element.shadowRoot?.querySelectorAll('*').length ?? 0,
      transcriptHeight: transcript().scrollHeight,
    };
  },
  async scroll({ frames, step }) {
    const box = transcript();
    box.scrollTop = box.scrollHeight;
    await nextFrame();
    const intervals: number[] = [];
    const start = box.scrollTop;
    let previous = await nextFrame();
    for (let frame = 0; frame < frames; frame += 1) {
      box.scrollTop -= step;
      const now = await nextFrame();
      intervals.push(now - previous);
      previous = now;
    }
    const distance = start - box.scrollTop;
    box.scrollTop = box.scrollHeight;
    await nextFrame();
    await nextFrame();
    return { intervals, distance };
  },
  async stream({ text, deltaLength }) {
    if (!element || !client) throw new Error('mount first');
    const base = client.getState();
    const runId = 'run-streamed';
    const question: SnapshotMessage = {
      messageId: 'u-streamed',
      role: 'user',
      content: 'One more question?',
      status: 'complete',
      runId,
    };
    const litMs: number[] = [];
    const markdownMs: number[] = [];
    const box = transcript();
    await nextFrame();
    for (let end = deltaLength; end < text.length + deltaLength; end += deltaLength) {
      const answer: SnapshotMessage = {
        messageId: 'a-streamed',
        role: 'assistant',
        content: text.slice(0, end),
        status: 'streaming',
        runId,
      };
      // Frame order: our start mark, then the Markdown body's frame callback (it is requested during
      // the Lit update below), then our end mark; so end − start is exactly the Markdown flush.
      let markStart = 0;
      requestAnimationFrame(() => {
        markStart = performance.now();
      });
      const started = performance.now();
      client.emit({
        run: { runId, status: 'running', lastSeq: end },
        connection: 'streaming',
        messages: [...base.messages, question, answer],
      });
      await element.updateComplete;
      litMs.push(performance.now() - started);
      await new Promise<void>((resolve) =>
        requestAnimationFrame(() => {
          void box.scrollHeight;
          markdownMs.push(performance.now() - markStart);
          resolve();
        }),
      );
    }
    client.emit({ run: { runId, status: 'completed', lastSeq: text.length + 1 }, connection: 'idle' });
    await element.updateComplete;
    return { litMs, markdownMs };
  },
  unmount() {
    element?.remove();
    client?.dispose();
    element = undefined;
    client = undefined;
  },
};
