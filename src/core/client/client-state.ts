import type {
  BootstrapResponse,
  BrowserToolDeclaration,
  EventDataMap,
  RunStatus,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
} from '../protocol.ts';
import type { RunEventFold } from '../state/run-reducer.ts';

/** The client's link to the server, one string (never a pair of booleans). */
export type ConnectionStatus = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'offline' | 'error';

/** An error the UI shows: a human message plus a copyable reference. */
export interface ClientError {
  /** The protocol code (`RUN_ERROR.code`, a problem `code`, or `NETWORK_ERROR`/`TIMEOUT`). */
  code: string;
  /** Safe to show; never provider internals. */
  message: string;
  /** `requestId` of a failed request or `correlationId` of a failed run, to quote to support. */
  reference: string | null;
  /** True when the user may try again (a new send, or `retry()` of the failed action). */
  retryable: boolean;
  /** What failed: a request the client made, the run itself, or the stream connection. */
  source: 'request' | 'run' | 'stream';
  runId?: string;
}

/** A send the server has not definitively answered yet, or that failed definitively. */
export interface PendingSend {
  clientMessageId: string;
  text: string;
  status: 'sending' | 'failed';
}

/** A tool runner's part in one browser tool call (docs/client.md, "Browser tools"). */
export type ToolRunnerPhase =
  'claiming' | 'running' | 'delivering' | 'reconciling' | 'needs_reconciliation' | 'elsewhere' | 'refused' | 'done';

/** What the tool runner attached to the client shows about the browser tool calls it has seen. */
export interface ToolRunnerView {
  /** The executor id this page claims calls as. */
  executorId: string;
  /** This runner's phase per tool call id. */
  calls: Readonly<Record<string, ToolRunnerPhase>>;
  /**
   * What each browser call's card says instead of its status, by tool call id, in the runner's
   * language: where it runs ("Running in this browser"), or that it needs reconciliation.
   */
  notes: Readonly<Record<string, string>>;
}

/**
 * What an extension (the browser tool runner) plugs into a client with `extend`
 * (docs/client.md, "Browser tools"). A reset (an identity change) unplugs it with the rest of
 * the state; the runner revokes itself then.
 */
export interface ClientExtension {
  /** Folds each later run event after the client's own reducer (browser tools: `foldExecutorEvents`). */
  foldRunEvent: RunEventFold;
  /** The browser tools every later `send` declares (docs/protocol.md §19). */
  browserTools: BrowserToolDeclaration[];
  /** What `state.toolRunner` shows; null while no runner runs. */
  toolRunner: ToolRunnerView | null;
}

/** The run the client currently follows (the session's active run, or its latest one). */
export interface ClientRun {
  runId: string;
  status: RunStatus;
  lastSeq: number;
}

/**
 * The immutable state the UI renders. Every field is replaced, never mutated, so a listener can
 * compare references. Messages are the session's transcript in order (settled history first, then
 * each run's messages as the reducer folds them); tool calls and interrupts belong to messages
 * through `parentMessageId` / `toolCallId`.
 */
export interface ClientState {
  connection: ConnectionStatus;
  sessionId: string | null;
  messages: readonly SnapshotMessage[];
  /** True when the session has settled messages older than `messages` starts with (`loadOlderMessages()`). */
  hasOlderMessages: boolean;
  /** True while `loadOlderMessages()` reads the older page. */
  isLoadingOlderMessages: boolean;
  toolCalls: readonly SnapshotToolCall[];
  interrupts: readonly SnapshotInterrupt[];
  run: ClientRun | null;
  pendingSend: PendingSend | null;
  /** Interrupt ids whose decision is being submitted (buttons disabled). */
  submittingInterruptIds: readonly string[];
  error: ClientError | null;
  /** Bootstrap answer: identity, capabilities, limits, stream settings; null before `bootstrap()`. */
  bootstrap: BootstrapResponse | null;
  /** True from `cancel()` until the server confirms the run ended (or the cancel failed). */
  isStopping: boolean;
  /** Messages of a failed model attempt, still in `messages` while the run retries (gone once the retry's text streams). */
  discardedMessageIds: readonly string[];
  /** The `RUN_ERROR` of each run in `messages` that failed, oldest first, so a failure stays with its turn. */
  runErrors: readonly ClientError[];
  /** The attached tool runner's view of its browser tool calls; null when no runner is attached. */
  toolRunner: ToolRunnerView | null;
  /** The reason of each tool call that ended its run on purpose (outcome `stopped`), by tool call id. */
  toolStops: Readonly<Record<string, string>>;
  /** The followed run's `NOTICE`s, oldest first (e.g. `MODEL_RETRYING`: the next model attempt and when it starts). */
  notices: readonly RunNotice[];
}

/** One `NOTICE` of a run: a recoverable condition the run goes on after (docs/protocol.md §7.1). */
export type RunNotice = EventDataMap['NOTICE'];
