import type {
  BootstrapResponse,
  EventEnvelope,
  HistoryInterrupt,
  HistoryToolCall,
  MessageFeedback,
  RunSnapshot,
  SnapshotMessage,
} from '../protocol.ts';
import type { ClientError, ClientExtension } from './client-state.ts';

/** A page of settled history (`GET /sessions/{id}/messages`) as the model keeps it. */
export interface HistoryPage {
  /** Its messages, oldest first. */
  history: readonly SnapshotMessage[];
  historyToolCalls: readonly HistoryToolCall[];
  historyInterrupts: readonly HistoryInterrupt[];
  /** The cursor of the next older page (`nextBefore`); null when this page reaches the start. */
  olderCursor: string | null;
}

/** The user's message of one send, as the composer had it. */
export interface SentText {
  clientMessageId: string;
  text: string;
  /** The failed run this send answers again (`retryOf`): it leaves the transcript as the send starts. */
  replacesRunId?: string;
}

/**
 * Everything that can happen to a client, as plain data: the only way its model changes
 * (`reduceClient`). The client's parts dispatch these and run the effects (requests, streams,
 * storage) themselves; each action names what happened, not which fields to set.
 */
export type ClientAction =
  /** `resetIdentity()`: everything is dropped. */
  | { type: 'reset' }
  /** A call answered `409 IDENTITY_CHANGED`: everything is dropped and the error is shown. */
  | { type: 'identityChanged'; error: ClientError }
  | { type: 'bootstrapped'; bootstrap: BootstrapResponse }
  | { type: 'bootstrapFailed'; error: ClientError }
  /** A request of an action failed (the error is shown; the connection is untouched). */
  | { type: 'requestFailed'; error: ClientError }
  /** The stream stopped for good (401/403/404, stalled, …). */
  | { type: 'streamFailed'; error: ClientError }
  /** `retry()` of a stopped stream: the error goes before the stream is reopened. */
  | { type: 'streamRetried' }
  /** A session or run snapshot is being read. */
  | { type: 'loadStarted' }
  /** A session's newest page of settled history was read (newest first on the wire, reversed here). */
  | ({
      type: 'sessionLoaded';
      sessionId: string;
      agentVersionId: string | null;
      hasActiveRun: boolean;
    } & HistoryPage)
  /** `loadOlderMessages()`: the page before `before` (the model's `olderCursor`) is being read. */
  | { type: 'olderPageRequested'; before: string }
  /**
   * That page arrived (oldest first), or failed (null; the error follows as `requestFailed`).
   * Dropped unless the model's `olderCursor` is still `before`: a message id belongs to one
   * session, so a page of a session left meanwhile never matches.
   */
  | {
      type: 'olderPageRead';
      before: string;
      page: HistoryPage | null;
    }
  /** `newSession()`: the conversation is dropped; bootstrap and identity stay. */
  | { type: 'sessionCleared' }
  /** After a reload: the persisted pending create belongs to this session. */
  | { type: 'sessionResumed'; sessionId: string }
  /** A create is on its way; `isStreaming` while another run's stream is open (it keeps the connection). */
  | { type: 'sendStarted'; send: SentText; isStreaming: boolean }
  /** The server answered the create with a run. */
  | { type: 'runCreated'; runId: string; sessionId: string }
  /** The create failed (the text stays in `pendingSend`); the error follows as `requestFailed`. */
  | { type: 'sendFailed'; send: SentText; isStreaming: boolean }
  /** After a reload: the persisted create is too old to re-send; the user decides. */
  | { type: 'sendExpired'; send: SentText; error: ClientError }
  /** The user dropped a failed send's text. */
  | { type: 'sendDiscarded' }
  /** An approval decision is being submitted. */
  | { type: 'approvalSubmitted'; interruptId: string }
  /** Submitting an approval decision failed; the error follows as `requestFailed`. */
  | { type: 'approvalFailed'; interruptId: string }
  /** A run's snapshot was read (`connect()`, `restore()`, `409 RUN_ALREADY_ACTIVE`). */
  | { type: 'runLoaded'; snapshot: RunSnapshot }
  /** A gap or an expired cursor: the run's state is reset to its snapshot. */
  | { type: 'runResynced'; snapshot: RunSnapshot }
  /** `runId` becomes the followed run; the host signals decide whether its stream opens. */
  | { type: 'runFollowed'; runId: string; isVisible: boolean; isOnline: boolean }
  /** One event of a followed run's stream. */
  | { type: 'eventReceived'; event: EventEnvelope }
  | { type: 'streamPhaseChanged'; phase: 'connecting' | 'streaming' | 'reconnecting' }
  /** The followed run's stream reached its end. */
  | { type: 'streamEnded' }
  /** Visibility or network changed while no run is followed. */
  | { type: 'hostSignalsChanged'; isOnline: boolean }
  /** Stop was pressed for `runId`, or (null) for the run a create still in flight will return. */
  | { type: 'stopRequested'; runId: string | null }
  /** The cancel request failed; the error follows as `requestFailed`. */
  | { type: 'stopFailed' }
  /** The server kept the user's vote on the answer `messageId` (docs/protocol.md §5.9). */
  | { type: 'feedbackKept'; messageId: string; feedback: MessageFeedback }
  /** `extend()`: an extension was plugged in (null: unplugged). */
  | { type: 'extended'; extension: ClientExtension | null };

/** The action types, for exhaustive tables. */
export type ClientActionType = ClientAction['type'];
