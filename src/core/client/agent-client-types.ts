import type {
  AttachmentRef,
  MessageFeedback,
  ApprovalDecision,
  BootstrapResponse,
  ContextRef,
  EventEnvelope,
  FocusContext,
  ReasoningEffort,
} from '../protocol.ts';
import type { Clock } from '../clock.ts';
import type { ClientStorage } from './client-persistence.ts';
import type { ClientExtension, ClientState } from './client-state.ts';

/** Options of one `send`. */
export interface SendOptions {
  contextRefs?: ContextRef[];
  /** Files uploaded with `POST /attachments` that go with the message (docs/protocol.md §5.8). */
  attachments?: { attachmentId: string }[];
  /** The host's instruction for this send only: the model sees it, the history never keeps it. */
  instruction?: string;
  /** What the user is looking at, for the model (the server may cut it, saying so). */
  focus?: FocusContext;
  modelId?: string;
  reasoningEffort?: ReasoningEffort;
  limits?: { maxCostUsd?: string };
}

/** Called with the new state after every change; the state object is immutable. */
export type StateListener = (state: ClientState) => void;

/**
 * The DOM-free client of one conversation: the widget's only way to talk to the server. Every
 * action resolves once the server has definitively answered (the stream then carries the run);
 * actions reject with an `AgentError` (with `code`) on definitive failure or bad use.
 */
export interface AgentClient {
  /** Fetches `/bootstrap` (identity, limits, capabilities); rejects if the endpoint is not protocol v1. */
  bootstrap(): Promise<BootstrapResponse>;
  /** Sends user text as a new run (at most one run per call, whatever the retries). */
  send(text: string, options?: SendOptions): Promise<{ runId: string }>;
  /** Asks the server to cancel the active run (the explicit Stop button only). */
  cancel(): Promise<void>;
  /** Answers an open approval with the digest of exactly the arguments shown. */
  approve(interruptId: string, decision: ApprovalDecision): Promise<void>;
  /** Appends text to the active run. */
  addInput(text: string): Promise<void>;
  /**
   * Keeps the user's vote on the finished answer `messageId` of run `runId` (`POST
   * /runs/{id}/feedback`; a later vote replaces it); the message's `feedback` shows it once the
   * server has answered.
   */
  sendFeedback(runId: string, messageId: string, feedback: MessageFeedback): Promise<void>;
  /**
   * Uploads one file for a later send (`POST /attachments`, docs/protocol.md §5.8) with its own
   * type as `Content-Type`; resolves with the stored file to name in `send`'s `attachments`.
   * Never retried (each upload is a new file); rejects with the server's code (`413
   * PAYLOAD_TOO_LARGE`, `415 ATTACHMENT_TYPE_UNSUPPORTED`, …), or `ABORTED` when `signal` aborts.
   */
  uploadAttachment(file: Blob, options: { name: string; signal?: AbortSignal }): Promise<AttachmentRef>;
  /** Loads a session: settled history plus the active run's snapshot and stream. */
  restore(sessionId: string): Promise<void>;
  /**
   * Switches to another conversation (the same as `restore`): the current one's run goes on on
   * the server; the other's history loads and its active run streams again. Throws
   * `SEND_IN_PROGRESS` while a create is unresolved.
   */
  switchSession(sessionId: string): Promise<void>;
  /**
   * Prepends the page of settled history older than the transcript's first message (restore reads
   * the newest page). Resolves at once, without a request, when nothing is older
   * (`state.hasOlderMessages`) or that page is already being read (`state.isLoadingOlderMessages`);
   * a page that arrives after a switch to another session is dropped. Never shows a message twice
   * (merged by `messageId`).
   */
  loadOlderMessages(): Promise<void>;
  /** Follows an existing run from its snapshot. */
  connect(runId: string): Promise<void>;
  /**
   * Starts a new conversation: the transcript and session are dropped (the old session and any run
   * in it go on on the server; `restore` returns to it) and the next `send` creates a session.
   * Throws `SEND_IN_PROGRESS` while a create is unresolved. Bootstrap and identity are kept.
   */
  newSession(): void;
  /**
   * Retries the failed action behind `state.error`: a failed send re-sends (a new key after a
   * definitive failure); a failed run is answered again as the same turn (`retryOf`).
   */
  retry(): Promise<void>;
  subscribe(listener: StateListener): () => void;
  getState(): ClientState;
  /** Drops all state and identity (after `IDENTITY_CHANGED` or a logout). */
  resetIdentity(): void;
  /** Host signals, injected rather than read from globals. */
  setVisibility(visible: boolean): void;
  setOnline(online: boolean): void;
  /** Closes streams and timers; every later call rejects with `CLIENT_DISPOSED`. */
  dispose(): void;
}

/** Options of `createAgentClient`; everything but `endpoint` has a default. */
export interface AgentClientOptions {
  /** The base the protocol lives under, e.g. `'/api/agent'` (the client adds `/v1/…`). */
  endpoint: string;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Id source for client message ids and idempotency keys (default random UUIDv4s from `crypto.getRandomValues`). */
  ids?: () => string;
  /** Uniform [0, 1) source for backoff jitter. */
  random?: () => number;
  /** Opt-in persistence (e.g. `sessionStorage`): the pending create and the active run survive a reload. */
  storage?: ClientStorage;
  storagePrefix?: string;
  /** Pins new sessions to this agent version instead of the bootstrap's. */
  agentVersion?: string;
  /** Initial host signals (default visible and online). */
  visibility?: boolean;
  online?: boolean;
  /** Fetch credentials mode (default `'same-origin'`); typed through `RequestInit` so Node needs no DOM lib. */
  credentials?: RequestInit['credentials'];
  /**
   * The product's own headers, asked for before every request and stream attempt (e.g. a bearer
   * token for an agent API on another origin); the protocol's headers win over one of the same name.
   */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** BCP 47 locale sent as `Accept-Language`, so server text (approvals, tool titles, errors) follows the widget. */
  locale?: string;
  /** Stream watchdog in ms (default `bootstrap.stream.clientIdleTimeoutSec`). */
  idleTimeoutMs?: number;
  /** Attempts of a create (same key and body each time) before the send is shown as failed (default 8). */
  createAttempts?: number;
  /** Per-request timeout in ms (default the transport's 30 s). */
  requestTimeoutMs?: number;
  backoff?: { baseMs?: number; capMs?: number };
  /**
   * Called after `state.sessionId` changes (a first send made a session, a switch, `newSession`,
   * a reset): the host's `session changed` event. With `storage` the current session is also kept
   * there, so a reload shows the same conversation.
   */
  onSessionChange?: (sessionId: string | null) => void;
  /**
   * Keeps the tabs showing this conversation in step (docs/client.md, "Tabs"): runs started in
   * another tab of the browser are followed at once, and a tab coming back into view catches up
   * with its session. Default false; `mount` and the React component turn it on.
   */
  syncTabs?: boolean;
  /** Observes every event the client applies, once each, in order (logging, tests). */
  onEvent?: (event: EventEnvelope) => void;
}

/** A request an extension of the client (the tool runner, the conversations) sends under the client's identity. */
export interface ProtocolRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to `{endpoint}/v1`, starting with `/`. */
  path: string;
  /** Already-serialized JSON, the same on every attempt. */
  body?: string;
  headers?: Record<string, string>;
  /** Attempts of a retryable failure, the first included (default 1). */
  attempts?: number;
  timeoutMs?: number;
}

/** A 2xx answer to a {@link ProtocolRequest}. */
export interface ProtocolResponse<T> {
  status: number;
  body: T | null;
  requestId: string | null;
}

/** An `AgentClient` plus the additions this implementation offers. */
export interface AgentClientHandle extends AgentClient {
  /** Drops a failed send's text and its frozen key (the user cleared the composer). */
  discardPendingSend(): void;
  /**
   * Sends a protocol request with the client's identity, for extensions such as the tool runner:
   * `resetIdentity()` and `dispose()` abort it, and `409 IDENTITY_CHANGED` resets the client as for
   * any request. Other failures reject with their `AgentError` and never reach `state.error`.
   */
  request<T>(request: ProtocolRequest): Promise<ProtocolResponse<T>>;
  /**
   * Plugs `extension` (the browser tool runner) into the client, replacing the one before; null
   * unplugs it. Its fold applies to every later run event, every later `send` declares its browser
   * tools, and `state.toolRunner` shows its view (docs/client.md, "Browser tools").
   */
  extend(extension: ClientExtension | null): void;
}
