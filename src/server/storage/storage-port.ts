import type {
  BrowserToolDeclaration,
  CreateRunRequest,
  EventEnvelope,
  RunSnapshot,
  SnapshotMessage,
} from '../../core/protocol.ts';
import type { RateDecision } from '../limits/rate-limiter.ts';
import type { RunInput, SettledToolCall, Subject } from '../runs/run-handle.ts';

/** The storage reads settled tool calls back in the run's own shape. */
export type { SettledToolCall } from '../runs/run-handle.ts';

/** The response a completed request stored, replayed verbatim on a retry. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Thrown by {@link AgentStorage.appendEvents} when the idempotency record to complete is no longer
 * held by the request's token (its lock expired and another request took it over): nothing was
 * appended, so the other request's effect stays the only one.
 */
export class IdempotencyLockLostError extends Error {
  constructor(readonly recordId: string) {
    super(`The idempotency record ${recordId} was taken over by another request.`);
    this.name = 'IdempotencyLockLostError';
  }
}

/** A conversation as stored: pinned to one agent version, at most one active run. */
export interface StoredSession {
  sessionId: string;
  subjectId: string;
  agentVersionId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  activeRunId: string | null;
  lastRunId: string | null;
}

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

/** One run of a session as the conversation tree needs it (docs/protocol.md §5.7, "Branches"). */
export interface StoredTurnLink {
  runId: string;
  userMessageId: string;
  /** `start.parentMessageId`: a message id, null (the conversation's start), or undefined (a run made before branches). */
  parentMessageId: string | null | undefined;
  /** `start.replacesRunId`, when the run answered a failed one again. */
  replacesRunId?: string;
  /** The id of the run's last settled message (its final snapshot's last message); null while the run is live. */
  lastMessageId: string | null;
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

/** Completes an idempotency record in the same transaction as the effect it answers for. */
export interface IdempotencyCompletion {
  recordId: string;
  /** The subject the record belongs to (its scope): a store may keep the record with the subject's data. */
  subjectId: string;
  /** The token `beginIdempotency` was given; a record taken over by another request refuses it. */
  token: string;
  response: StoredResponse;
  expiresAt: number;
}

/** What {@link AgentStorage.beginIdempotency} decided for a key. */
export type IdempotencyBeginOutcome =
  { kind: 'replay'; response: StoredResponse } | { kind: 'reused' } | { kind: 'in_use' } | { kind: 'started' };

/** One run lease: the process producing the run, until when. */
export interface RunLease {
  runId: string;
  owner: string;
  expiresAt: number;
}

/** The command of {@link AgentStorage.createRun}: everything that is committed together. */
/**
 * One person's rating of one answer (docs/protocol.md, "Feedback"): `subjectId` voted `rating` on
 * the assistant message `messageId` of run `runId`, with an optional comment. A later vote of the
 * same person on the same message replaces it. It goes with its run.
 */
export interface StoredFeedback {
  runId: string;
  messageId: string;
  subjectId: string;
  rating: 'up' | 'down';
  comment: string | null;
  /** Epoch ms of the vote. */
  updatedAt: number;
}

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

/** What {@link AgentStorage.createRun} did; every outcome but `created` committed nothing. */
export type CreateRunOutcome =
  | { kind: 'created'; session: StoredSession }
  | { kind: 'session_not_found' }
  | { kind: 'version_mismatch'; agentVersionId: string }
  | { kind: 'run_active'; activeRunId: string }
  /** `replacesRunId` is no longer the session's latest run. */
  | { kind: 'not_latest_run' }
  | { kind: 'idempotency_lost' };

/** Options of {@link AgentStorage.appendEvents}. */
export interface AppendOptions {
  /** Required when the batch ends with the terminal event: the snapshot after it. */
  finalSnapshot?: RunSnapshot;
  /** Committed with the events (an `/inputs` echo and its idempotency record). */
  idempotency?: IdempotencyCompletion;
}

/** What {@link AgentStorage.updateSessionTitle} did; only `updated` changed anything. */
export type TitleUpdateOutcome =
  | { kind: 'updated'; session: StoredSession }
  | { kind: 'not_found' }
  /** The title was no longer `expectedTitle` (a rename got there first). */
  | { kind: 'title_changed' };

/** What {@link AgentStorage.showBranch} did; only `shown` changed anything. */
export type ShowBranchOutcome =
  | { kind: 'shown'; session: StoredSession }
  /** No such session, or another subject's. */
  | { kind: 'not_found' }
  | { kind: 'run_active'; activeRunId: string };

/** What {@link AgentStorage.deleteSession} did; only `deleted` changed anything. */
export type DeleteSessionOutcome =
  { kind: 'deleted'; runIds: string[] } | { kind: 'not_found' } | { kind: 'run_active'; activeRunId: string };

/** One page of a newest-first listing; `next` is the cursor of the following page, or null. */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/**
 * What {@link AgentStorage.enforceRetention} keeps (docs/protocol.md §16.3, docs/server.md
 * "Retention"). Only sessions without an active run are ever deleted, each with all its runs,
 * least recently active first (equal times in creation order). Past `maxSessions` (`maxRuns`) only
 * sessions idle for `protectActiveSessionsMs` go, so one identity's creations never evict another
 * identity's recently active sessions: the store stays over its cap until one is idle that long,
 * and {@link AgentStorage.checkSessionRoom} refuses new sessions meanwhile.
 */
export interface RetentionRequest {
  now: number;
  /** Without `touched` (a sweep): sessions idle this long are deleted. */
  sessionIdleTtlMs: number;
  /** Past it the touched subject's own least recently active sessions are deleted, however recent. */
  maxSessionsPerSubject: number;
  /** Past it the touched session's oldest runs are deleted (their messages leave its history). */
  maxRunsPerSession: number;
  maxSessions: number;
  maxRuns: number;
  /** The store caps delete only sessions with no run started or ended for this long. */
  protectActiveSessionsMs: number;
  /** After a create: the session that got the run (never deleted) and its subject, whose caps apply. */
  touched?: { sessionId: string; subjectId: string };
}

/** What {@link AgentStorage.checkSessionRoom} asks: the store caps of {@link RetentionRequest}. */
export type SessionRoomRequest = Pick<RetentionRequest, 'now' | 'maxSessions' | 'maxRuns' | 'protectActiveSessionsMs'>;

/** Whether a new session fits under the store caps; `full` names the cap that is reached. */
export type SessionRoom = { kind: 'room' } | { kind: 'full'; limit: 'maxSessions' | 'maxRuns' };

/** The room a store holding `counts` has without deleting anything: below both caps, or the cap reached. */
export function roomUnderCaps(request: SessionRoomRequest, counts: { sessions: number; runs: number }): SessionRoom {
  if (counts.sessions >= request.maxSessions) return { kind: 'full', limit: 'maxSessions' };
  if (counts.runs >= request.maxRuns) return { kind: 'full', limit: 'maxRuns' };
  return { kind: 'room' };
}

/**
 * Everything the server keeps (docs/server.md, "Storage"): sessions and their settled history,
 * runs with their sequenced event logs and final snapshots, idempotency records, run leases and
 * server settings. Every method is async and safe to call from several processes at once: the
 * store itself fences appends by the expected last seq, inserts idempotency records only when
 * absent and commits a run with its first event and its idempotency record together. Only the
 * doorbell (`subscribe`) may be in-process (memory, SQLite); Redis rings it across processes.
 */
export interface AgentStorage {
  /**
   * Commits a run: creates or continues the session (refused when it is not the subject's, is
   * pinned to another version or has an active run), the run, its `RUN_STARTED`, the creator's
   * lease and the completed idempotency record, all or nothing.
   */
  createRun(command: CreateRunCommand): Promise<CreateRunOutcome>;
  getRun(runId: string): Promise<StoredRun | null>;
  getSession(sessionId: string): Promise<StoredSession | null>;
  /**
   * The subject's sessions, most recent activity (`updatedAt`) first, equal times latest created
   * first. `next` is a keyset cursor of the store (`session-cursor.ts`), so a session whose
   * activity moves while a client pages is neither repeated nor shifts the pages; null when `after`
   * is not such a cursor.
   */
  listSessions(subjectId: string, page: { after?: string; limit: number }): Promise<Page<StoredSession> | null>;
  /** Settled user and assistant messages in the session's history (reasoning is not counted). */
  countSessionMessages(sessionId: string): Promise<number>;
  /**
   * Sets the title of the subject's session; with `expectedTitle`, only while the title is still
   * that (a suggested title never overwrites a rename). Does not move `updatedAt`.
   */
  updateSessionTitle(request: {
    sessionId: string;
    subjectId: string;
    title: string;
    expectedTitle?: string | null;
  }): Promise<TitleUpdateOutcome>;
  /**
   * Shows another branch of the subject's session (docs/protocol.md §5.7): in one step, the settled
   * messages of the runs `leave` leave its history and those of `enter` come back, each at the place
   * it had (history stays in settle order), unless the session has an active run (checked in the same
   * step). Moves neither `updatedAt` nor `lastRunId`. Ids that are not ended runs of the session are
   * ignored; messages already in (or out of) history stay so, and a run named in both ends in it.
   */
  showBranch(request: {
    sessionId: string;
    subjectId: string;
    leave: readonly string[];
    enter: readonly string[];
  }): Promise<ShowBranchOutcome>;
  /**
   * Deletes the subject's session with all its runs, logs and messages, in one step, unless it
   * has an active run (checked in the same step, so a create cannot slip in between).
   */
  deleteSession(request: { sessionId: string; subjectId: string }): Promise<DeleteSessionOutcome>;
  /** Ids of the session's runs, oldest first. */
  listSessionRunIds(sessionId: string): Promise<string[]>;
  /**
   * The session's runs, oldest first, as links of its conversation tree: no message content is
   * read. Every run counts, whether its messages are in the history (the branch shown) or not.
   */
  listTurnLinks(sessionId: string): Promise<StoredTurnLink[]>;
  /**
   * Settled messages (from ended runs) in the session's history (the branch shown), newest first,
   * `limit` at most (all when omitted); null when `before` is not a message of that history.
   */
  listMessages(sessionId: string, page: { before?: string; limit?: number }): Promise<Page<SnapshotMessage> | null>;
  /**
   * The tool calls of the session's ended runs (their final snapshots), oldest run first and each
   * run's in log order: with `listMessages`, the history the engine rebuilds for the model.
   */
  listSettledToolCalls(sessionId: string): Promise<SettledToolCall[]>;

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
  /** Deletes what the caps and the idle TTL do not keep; returns what went. */
  enforceRetention(request: RetentionRequest): Promise<{ sessionIds: string[]; runIds: string[] }>;
  /**
   * Whether a new session fits: `room` while the store holds fewer than `maxSessions` sessions and
   * `maxRuns` runs, or while the store caps may delete a session (no active run, idle for
   * `protectActiveSessionsMs`); else `full` with the cap reached (`maxSessions` first). Asked
   * before a create writes anything; creates racing past it overshoot the caps until sessions idle.
   */
  checkSessionRoom(request: SessionRoomRequest): Promise<SessionRoom>;

  /**
   * Looks an idempotency key up and, when there is no live record, inserts an `in_progress` one
   * holding `token` until `lockedUntil` (an expired lock or record is taken over). Concurrent
   * calls for one record id: exactly one gets `started`.
   */
  beginIdempotency(request: {
    recordId: string;
    /** The subject the record belongs to (its scope): a store may keep the record with the subject's data. */
    subjectId: string;
    fingerprint: string;
    token: string;
    now: number;
    lockedUntil: number;
    expiresAt: number;
  }): Promise<IdempotencyBeginOutcome>;
  /** Stores the response of a request that committed nothing else; false when the lock was lost. */
  completeIdempotency(completion: IdempotencyCompletion): Promise<boolean>;
  /** Removes the `in_progress` record if `token` still holds it (the request failed before committing). */
  abandonIdempotency(recordId: string, token: string, subjectId: string): Promise<void>;
  /** Deletes idempotency records that expired by `now`; returns how many. */
  deleteExpiredIdempotency(now: number): Promise<number>;

  /** Extends the lease if `owner` holds it; false otherwise (another process took the run over). */
  renewLease(runId: string, owner: string, expiresAt: number): Promise<boolean>;
  /** Takes over the lease of a live run whose lease expired by `now`; exactly one caller wins. */
  takeExpiredLease(runId: string, owner: string, now: number, expiresAt: number): Promise<boolean>;
  /** Leases that expired by `now`, oldest first. */
  listExpiredLeases(now: number, limit: number): Promise<RunLease[]>;

  /**
   * Counts one request against a rate bucket shared by every process (optional: without it each
   * process limits on its own). Same algorithm and answers as `createRateLimiter`: a burst of
   * `perMinute`, then one every `60 s / perMinute`; a refused request is not counted.
   */
  takeRate?(request: { bucket: string; perMinute: number; now: number }): Promise<RateDecision>;

  /**
   * How many of the subject's runs have not ended, whichever process produces them (optional:
   * without it each process counts the runs it produces against `maxActiveRuns`).
   */
  countActiveRuns?(subjectId: string): Promise<number>;
  /**
   * The browser-tool executor leases, shared by every process (optional: without it each process
   * keeps the leases of the executors that connected to it, docs/protocol.md §19.4).
   */
  executorLeases?: ExecutorLeaseStore;

  /**
   * Records that the subject's AG-UI thread is served by `sessionId` (docs/ag-ui.md, "Threads"),
   * replacing an earlier binding; nothing when the session no longer exists. A binding goes with
   * its session.
   */
  bindAgUiThread(binding: { subjectId: string; threadId: string; sessionId: string }): Promise<void>;
  /** The session bound to the subject's AG-UI thread, or null. */
  findAgUiThread(subjectId: string, threadId: string): Promise<string | null>;
  /**
   * Records the AG-UI run that serves our run now (its creation, or the latest resume); nothing
   * when the run no longer exists. It goes with the run.
   */
  setAgUiSegment(runId: string, agUiRunId: string): Promise<void>;
  /** The AG-UI run that serves our run now, or null. */
  getAgUiSegment(runId: string): Promise<string | null>;

  /** Keeps `feedback`, replacing the same person's earlier vote on that message; false (nothing kept) when the run no longer exists. */
  putFeedback(feedback: StoredFeedback): Promise<boolean>;
  /** The person's votes on the run's messages, in message id order (empty when none or no run). */
  listFeedback(runId: string, subjectId: string): Promise<StoredFeedback[]>;

  /** How many sessions and runs are kept (for operators, tests and benchmarks). */
  counts(): Promise<{ sessions: number; runs: number }>;
  /** Returns the stored value of a server setting, storing `proposed` first when there is none. */
  getOrCreateSetting(name: string, proposed: string): Promise<string>;
  /**
   * Resolves once the storage can serve writes right now (SQLite: a write commits; Redis: the
   * server answers), rejects otherwise (optional: without it `/readyz` asks for `counts()`).
   */
  checkReady?(): Promise<void>;
  /** Releases the storage's resources (a database handle); the data stays. */
  close(): Promise<void>;
}

/** A stored executor lease (docs/protocol.md §19.4): the browser tools it runs and until when it holds. */
export interface StoredExecutorLease {
  subjectId: string;
  executorId: string;
  tools: readonly string[];
  /** Epoch ms. */
  expiresAt: number;
}

/** The executor leases of a deployment, shared by its processes (`AgentStorage.executorLeases`). */
export interface ExecutorLeaseStore {
  /**
   * Keeps (or refreshes) `lease`. Past `maxPerSubject` the subject's own least recently refreshed
   * leases go; a new lease needs one of `maxExecutors` live slots unless the subject's quota pays
   * for it: null (nothing kept) when all are taken.
   */
  connect(
    lease: StoredExecutorLease,
    caps: { now: number; maxPerSubject: number; maxExecutors: number },
  ): Promise<StoredExecutorLease | null>;
  /** Moves a live lease's expiry to `expiresAt`; null when there is no live lease. */
  heartbeat(subjectId: string, executorId: string, now: number, expiresAt: number): Promise<StoredExecutorLease | null>;
  /** Ends the lease; false when there was none. */
  disconnect(subjectId: string, executorId: string): Promise<boolean>;
  /** The live lease, or null. */
  find(subjectId: string, executorId: string, now: number): Promise<StoredExecutorLease | null>;
  /** Removes up to `limit` leases expired by `now` and returns them: of racing processes exactly one gets each. */
  takeExpired(now: number, limit: number): Promise<StoredExecutorLease[]>;
  /** How many leases are kept (expired ones until taken). */
  count(): Promise<number>;
}
