import type { BrowserToolDeclaration, CreateRunRequest, EventEnvelope, RunSnapshot } from '../../../core/protocol.ts';
import type { RunInput, Subject } from '../../runs/run-handle.ts';
import type { IdempotencyCompletion } from './idempotency-storage.ts';
import type { StoredSession } from './session-storage.ts';

/**
 * What started a run, kept so any process can hand the run to an engine again (a resume). It
 * holds what the model needs beyond the log (the send's instruction, focus context and resolved
 * attachments), which never enters the log, the snapshot or the session's messages.
 */
export interface RunStart {
  subject: Subject;
  input: RunInput;
  options: NonNullable<CreateRunRequest['options']>;
  /** The creating request's preferred locale (`Accept-Language`): the engine's user-facing text follows it. */
  locale?: string;
  /** The browser tools the run declared (docs/protocol.md §19), so a resumed run offers and waits for them again. */
  browserTools?: BrowserToolDeclaration[];
  /**
   * The message the run's turn follows (docs/protocol.md §5.2), null at the conversation's start;
   * absent on runs made before branches, which follow the run before them.
   */
  parentMessageId?: string | null;
  /** The failed run this one answered again (`retryOf`): it is no turn of the conversation's tree. */
  replacesRunId?: string;
}

/** A run as stored: who owns it, what started it, where its log stands and how it ended. */
export interface StoredRun {
  runId: string;
  sessionId: string;
  subjectId: string;
  userMessageId: string;
  createdAt: number;
  start: RunStart;
  /** The lowest seq still in the log (`lastSeq + 1` once compacted). */
  firstSeq: number;
  lastSeq: number;
  /** The terminal event's timestamp; null while the run is live. */
  endedAt: number | null;
  /** The reducer over the whole log, kept from the terminal append on; null while live. */
  finalSnapshot: RunSnapshot | null;
  isCompacted: boolean;
}

/** The command of {@link RunStorage.createRun}: everything that is committed together. */
export interface CreateRunCommand {
  /** A new session (its `activeRunId` is this run), or the id of one to continue. */
  session: { kind: 'new'; session: StoredSession } | { kind: 'existing'; sessionId: string };
  run: Omit<StoredRun, 'firstSeq' | 'lastSeq' | 'endedAt' | 'finalSnapshot' | 'isCompacted'>;
  /** The run's `RUN_STARTED` event (seq 1). */
  started: EventEnvelope<'RUN_STARTED'>;
  /** The session's title when it has none yet. */
  title: string | null;
  /** The creating process's lease on the run. */
  lease: { owner: string; expiresAt: number };
  /**
   * An ended run this one answers again (a retry): it must still be the session's latest run
   * (else `not_latest_run`), and its messages leave the session's settled messages (`listMessages`,
   * `countSessionMessages`) in the same commit. Its record, snapshot and log stay.
   */
  replacesRunId?: string;
  /**
   * Ended runs of the session whose settled messages leave its history in the same commit (a
   * branch made beside them, docs/protocol.md §5.2); `showBranch` brings them back. Unlike
   * `replacesRunId` they need not be the latest run. Their records, snapshots and logs stay; ids
   * that are not ended runs of the session are ignored.
   */
  leavesHistory?: readonly string[];
  idempotency?: IdempotencyCompletion;
}

/** What {@link RunStorage.createRun} did; every outcome but `created` committed nothing. */
export type CreateRunOutcome =
  | { kind: 'created'; session: StoredSession }
  | { kind: 'session_not_found' }
  | { kind: 'version_mismatch'; agentVersionId: string }
  | { kind: 'run_active'; activeRunId: string }
  /** `replacesRunId` is no longer the session's latest run. */
  | { kind: 'not_latest_run' }
  | { kind: 'idempotency_lost' };

/** Options of {@link RunStorage.appendEvents}. */
export interface AppendOptions {
  /** Required when the batch ends with the terminal event: the snapshot after it. */
  finalSnapshot?: RunSnapshot;
  /** Committed with the events (an `/inputs` echo and its idempotency record). */
  idempotency?: IdempotencyCompletion;
}

/**
 * Runs and their sequenced event logs: the commit that starts a run, the fenced appends that
 * continue and end it, the reads and the doorbell of live tails, and the compaction of ended logs.
 */
export interface RunStorage {
  /**
   * Commits a run: creates or continues the session (refused when it is not the subject's, is
   * pinned to another version or has an active run), the run, its `RUN_STARTED`, the creator's
   * lease and the completed idempotency record, all or nothing.
   */
  createRun(command: CreateRunCommand): Promise<CreateRunOutcome>;
  getRun(runId: string): Promise<StoredRun | null>;
  /**
   * Appends a batch atomically after `expectedLastSeq` (seqs must continue it gaplessly). Throws
   * `EventLogConflictError` when the log is elsewhere (a stale writer is refused), `RunClosedError`
   * when the run already ended. A batch ending with the terminal event also stores its final
   * snapshot and settled messages, frees the session's active slot and drops the lease. Rings the
   * run's doorbell once committed.
   */
  appendEvents(
    runId: string,
    expectedLastSeq: number,
    events: readonly EventEnvelope[],
    options?: AppendOptions,
  ): Promise<void>;
  /** Events with `seq > afterSeq` in order, at most `limit` (default all). */
  readEvents(runId: string, afterSeq: number, limit?: number): Promise<EventEnvelope[]>;
  /**
   * What a live tail reads after its doorbell rang (optional; `readEvents` otherwise): like
   * `readEvents`, but it may answer from the events the doorbell already brought into this process,
   * so it can lag the log by the events whose ring is still on its way, never skip one.
   */
  readTail?(runId: string, afterSeq: number, limit?: number): Promise<EventEnvelope[]>;
  /**
   * Registers a doorbell: `onWake(lastSeq)` is called after appends to the run, with the seq the
   * log reached (a listener that has folded that in may skip the ring). A lost or merged ring is
   * harmless because readers re-read the log. Returns the unsubscribe function.
   */
  subscribe(runId: string, onWake: (lastSeq: number) => void): () => void;
  /** Drops the logs of runs that ended before `endedBefore` (their final snapshots stay); returns how many. */
  compactEndedRuns(endedBefore: number, limit: number): Promise<number>;
}
