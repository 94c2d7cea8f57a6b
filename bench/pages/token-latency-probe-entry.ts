/**
 * Installed before the widget loads (`bench/token-latency.ts`): timestamps each stamped token
 * (`zq<index>` in the answer text) twice, on `performance.timeOrigin + performance.now()` (the
 * clock Node's `performance` shares):
 * - **state**: when the demo's inline client first notified a state holding it (the probe's
 *   listener is added after the widget's, so the widget has been told by then);
 * - **painted**: the end of the first rendering step after the token's text entered the DOM.
 *   A rendering step is marked from inside it: every animation frame posts a message, which runs
 *   as the first task after that frame's style, layout and paint. A token whose text appeared at
 *   `t` was painted at the first such mark after `t`.
 */

/** What the probe collected, read by the bench after each answer. */
export interface TokenProbeReadings {
  /** Token index → epoch ms at which the client's state first held it. */
  stateAt: Record<number, number>;
  /** Token index → epoch ms at which its text was first in the DOM. */
  domAt: Record<number, number>;
  /** Epoch ms of the end of each rendering step, ascending. */
  frameEnds: number[];
}

declare global {
  var tokenProbe: { read(): TokenProbeReadings; reset(firstIndex: number): void };
}

const TOKEN = /zq(\d+)/g;
const epochNow = (): number => performance.timeOrigin + performance.now();

let readings: TokenProbeReadings = { stateAt: {}, domAt: {}, frameEnds: [] };
/** Tokens below this belong to earlier answers. */
let firstIndex = 0;

/** Stamps every token index in `text` not seen yet into `into`, at `at`. */
function stampTokens(text: string, into: Record<number, number>, at: number): void {
  for (const match of text.matchAll(TOKEN)) {
    const index = Number(match[1]);
    if (index >= firstIndex && into[index] === undefined) into[index] = at;
  }
}

// State: a listener on the demo's inline client, added after the widget's own (listeners run in order).
interface ProbedClient {
  subscribe(listener: (state: { messages: { role: string; content: string }[] }) => void): () => void;
}
let isSubscribed = false;
function subscribeToState(): void {
  const client = (globalThis as { agentChatDemo?: { inline?: { client?: ProbedClient } } }).agentChatDemo?.inline
    ?.client;
  if (client === undefined) return;
  isSubscribed = true;
  client.subscribe((state) => {
    const answer = state.messages.findLast((message) => message.role === 'assistant');
    if (answer !== undefined) stampTokens(answer.content.slice(-400), readings.stateAt, epochNow());
  });
}

// DOM: the newest answer's Markdown body, found through the open shadow roots, watched for text.
let watched: Element | null = null;
const observer = new MutationObserver(() => {
  // Only the end can hold new tokens; 400 characters cover a frame's worth at the rates measured.
  stampTokens((watched?.textContent ?? '').slice(-400), readings.domAt, epochNow());
});

function findNewestMarkdown(root: Document | ShadowRoot): Element | null {
  let newest: Element | null = null;
  for (const element of root.querySelectorAll('*')) {
    if (element.classList.contains('markdown')) newest = element;
    if (element.shadowRoot) newest = findNewestMarkdown(element.shadowRoot) ?? newest;
  }
  return newest;
}

/** Whether `element` shows a token of the current answer. */
function holdsCurrentToken(element: Element): boolean {
  return [...(element.textContent ?? '').matchAll(TOKEN)].some((match) => Number(match[1]) >= firstIndex);
}

function onFrame(): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    const at = epochNow();
    readings.frameEnds.push(at);
    if (!isSubscribed) subscribeToState();
    if (watched !== null && watched.isConnected) return;
    const found = findNewestMarkdown(document);
    if (found === null || !holdsCurrentToken(found)) return;
    watched = found;
    // Its first tokens were in the DOM by this frame at the latest (the bench skips the first ones).
    stampTokens(found.textContent ?? '', readings.domAt, at);
    observer.observe(found, { subtree: true, childList: true, characterData: true });
  };
  channel.port2.postMessage(null);
  requestAnimationFrame(onFrame);
}
requestAnimationFrame(onFrame);

globalThis.tokenProbe = {
  read: () => readings,
  reset: (nextFirstIndex) => {
    readings = { stateAt: {}, domAt: {}, frameEnds: [] };
    firstIndex = nextFirstIndex;
    observer.disconnect();
    watched = null;
  },
};
