import type {
  BootstrapResponse,
  HistoryInterrupt,
  HistoryToolCall,
  RunSnapshot,
  SnapshotMessage,
} from '../protocol.ts';
import type { ClientError, ClientExtension, ConnectionStatus, PendingSend } from './client-state.ts';

/** Everything the client knows; `ClientState` is derived from it. */
export interface ClientModel {
  connection: ConnectionStatus;
  sessionId: string | null;
  /** Settled history, oldest first. */
  history: readonly SnapshotMessage[];
  /** The tool calls of the settled history's runs, as its pages carry them. */
  historyToolCalls: readonly HistoryToolCall[];
  /** The interrupts of the settled history's runs, as its pages carry them. */
  historyInterrupts: readonly HistoryInterrupt[];
  /** The `before` cursor of the page older than `history` (the wire's `nextBefore`); null when none is older. */
  olderCursor: string | null;
  /** True while the page before `olderCursor` is being read. */
  isLoadingOlderMessages: boolean;
  /** One reducer snapshot per run followed in this session, oldest first. */
  runs: readonly RunSnapshot[];
  /** The run `state.run` describes (the active or latest one). */
  followedRunId: string | null;
  pendingSend: PendingSend | null;
  optimistic: SnapshotMessage | null;
  submittingInterruptIds: readonly string[];
  error: ClientError | null;
  /** The error of the last failed bootstrap while it is unanswered; a later bootstrap clears only that one. */
  bootstrapError: ClientError | null;
  bootstrap: BootstrapResponse | null;
  /** The agent version the loaded session is pinned to (new runs in it use it), if known. */
  agentVersionId: string | null;
  /** Set from Stop until the run ends (or the stop fails); `runId` is null while the run's create is unanswered. */
  stopping: { runId: string | null } | null;
  /** Messages a failed model attempt streamed, kept (in discard order) while the run retries. */
  discarded: readonly DiscardedMessage[];
  /** What `extend` plugged in; null without an extension. */
  extension: ClientExtension | null;
}

/** A message retracted for a retry (`MESSAGE_DISCARDED{attempt_retry}`), with where it stood in its run. */
export interface DiscardedMessage {
  runId: string;
  /** Its index in the run's messages when it was discarded. */
  index: number;
  message: SnapshotMessage;
}

/** Returns the model of a client that has done nothing yet. */
export function createInitialClientModel(): ClientModel {
  return {
    connection: 'idle',
    sessionId: null,
    history: [],
    historyToolCalls: [],
    historyInterrupts: [],
    olderCursor: null,
    isLoadingOlderMessages: false,
    runs: [],
    followedRunId: null,
    pendingSend: null,
    optimistic: null,
    submittingInterruptIds: [],
    error: null,
    bootstrapError: null,
    bootstrap: null,
    agentVersionId: null,
    stopping: null,
    discarded: [],
    extension: null,
  };
}
