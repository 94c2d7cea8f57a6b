import type { EventEnvelope } from '../../core/protocol.ts';
import type { AgentStorage, RunStart, StoredSession } from '../storage/storage-port.ts';
import { unrefTimer } from '../unref-timer.ts';
import { EndedRunRecord } from './ended-run-record.ts';
import { buildAbandonedEnding, buildLeaseExpiredEnding } from './forced-endings.ts';
import type { RunHandle } from './run-handle.ts';
import type { RunRecord } from './run-record.ts';
import { createRunRecord } from './run-record.ts';
import type { RunEntry, RunStoreOptions } from './run-store.ts';
import type { SessionHistory } from './shown-branch.ts';
import { historyOf, readShownBranch } from './shown-branch.ts';

/**
 * How long what is kept (docs/protocol.md §16.3). Only sessions without an active run are ever
 * evicted, least recently active first, and a session goes with all its runs.
 */
export interface RetentionPolicy {
  /** A finished run's log is compacted to its snapshot this long after its terminal event. */
  eventRetentionMs: number;
  /** A session with no run started or ended for this long is evicted. */
  sessionIdleTtlMs: number;
  /** Sessions per subject; a new one past it evicts that subject's least recently active ones. */
  maxSessionsPerSubject: number;
  /** Runs per session; past it the session's oldest runs are evicted (their messages leave its history). */
  maxRunsPerSession: number;
  /**
   * Sessions in the whole store; past it the least recently active sessions idle for
   * `protectActiveSessionsMs` are evicted, and while none is, a new session is refused.
   */
  maxSessions: number;
  /** Runs in the whole store; past it whole sessions are evicted as for `maxSessions`. */
  maxRuns: number;
  /** How long since its last run started or ended a session is safe from the store caps. */
  protectActiveSessionsMs: number;
}

/** A run this process produces: its writer, its engine's abort controller and its timers. */
interface ProducedRun {
  entry: RunEntry;
  controller: AbortController;
  cancelReaper: unknown;
  unsubscribe: () => void;
}

/** What a handle is built from: the stored start of the run plus its session's history. */
type HandleSeed = RunStart & SessionHistory & { runId: string; sessionId: string };

/** The runs one process produces, and what it does for runs whose producer died (docs/server.md, "Restarts"). */
export interface LiveRuns {
  newRecord(runId: string, sessionId: string, events: readonly EventEnvelope[]): RunRecord;
  newLease(): { owner: string; expiresAt: number };
  /** Hands a committed run to the engine (`start`, or `resume` for a run adopted from a dead process). */
  produce(entry: RunEntry, seed: HandleSeed, mode: 'start' | 'resume'): void;
  /** The run's entry: this process's live one, else one read from storage (ended, or produced elsewhere). */
  entryOf(runId: string): Promise<RunEntry | null>;
  /** Settled user and assistant messages of the session and its runs' tool calls, oldest first (the engine's history). */
  abort(runId: string, reason: string): void;
  armCancelReaper(runId: string, timer: unknown): void;
  activeCount(subjectId: string): number;
  afterCreate(session: StoredSession): Promise<void>;
  sweep(): Promise<void>;
  reap(): Promise<void>;
  close(): void;
}

/** Creates the live runs of one run store and starts its lease renewal and reaper timers. */
export function createLiveRuns(options: RunStoreOptions): LiveRuns {
  const { storage, clock, ids, engine, retention, leaseTtlMs } = options;
  const owner = ids('prc');
  const produced = new Map<string, ProducedRun>();
  const timers = new Set<unknown>();
  let isClosed = false;

  const finishProduced = (runId: string): void => {
    const run = produced.get(runId);
    if (run === undefined) return;
    produced.delete(runId);
    run.unsubscribe();
    if (run.cancelReaper !== null) clock.clearTimeout(run.cancelReaper);
  };

  const newRecord = (runId: string, sessionId: string, events: readonly EventEnvelope[]): RunRecord =>
    createRunRecord({ runId, sessionId, storage, events, clock, ids, onTerminal: () => finishProduced(runId) });

  const report = (where: string, runId?: string) => (error: unknown) =>
    options.onError(error, { where, ...(runId === undefined ? {} : { runId }) });

  const { readAttachment } = options;
  const produce: LiveRuns['produce'] = (entry, seed, mode) => {
    const { record } = entry;
    const controller = new AbortController();
    // Another process's cancel reaches this one through the log: fold it in and stop the engine.
    // A ring for what the record already holds (its own append) reads nothing.
    // The engine stops with the cancel's reason, as when the cancel reached this process.
    const unsubscribe = storage.subscribe(seed.runId, (lastSeq) => {
      const heldSeq = record.snapshot().lastSeq;
      if (lastSeq <= heldSeq) return;
      void record
        .refresh(lastSeq)
        .then(async (snapshot) => {
          if (snapshot.status !== 'cancelling' || controller.signal.aborted) return;
          const cancelling = await findCancellingEvent(storage, seed.runId, heldSeq);
          if (!controller.signal.aborted) controller.abort(cancelling?.data.reason ?? 'cancelled');
        })
        .catch(report('refresh', seed.runId));
    });
    produced.set(seed.runId, { entry, controller, cancelReaper: null, unsubscribe });
    if (record.isTerminal()) finishProduced(seed.runId);
    const handle: RunHandle = {
      runId: seed.runId,
      sessionId: seed.sessionId,
      subject: seed.subject,
      input: seed.input,
      options: seed.options,
      ...(seed.locale === undefined ? {} : { locale: seed.locale }),
      history: seed.history,
      historyToolCalls: seed.historyToolCalls,
      ...(seed.browserTools === undefined ? {} : { browserTools: seed.browserTools }),
      signal: controller.signal,
      ...(options.interruptTtlMs === undefined ? {} : { interruptTtlMs: options.interruptTtlMs }),
      append: (type, data) => record.append(type, data),
      transact: (build) => record.transact(build),
      snapshot: () => record.snapshot(),
      waitFor: (predicate, signal) => record.waitFor(predicate, signal),
      readLog: () => storage.readEvents(seed.runId, 0),
      ...(readAttachment === undefined
        ? {}
        : { readAttachment: (attachmentId: string) => readAttachment(seed.subject.id, attachmentId) }),
    };
    const correlationId = ids('cor');
    const onEngineError = (error: unknown): void => options.onEngineError(error, { runId: seed.runId, correlationId });
    void Promise.resolve()
      .then(() => (mode === 'resume' && engine.resume !== undefined ? engine.resume(handle) : engine.start(handle)))
      .catch(onEngineError)
      .then(() =>
        record.isTerminal()
          ? undefined
          : record.transact((s) =>
              buildAbandonedEnding(s, {
                cancelReason: controller.signal.reason,
                newMessageId: () => ids('msg'),
                correlationId,
              }),
            ),
      )
      .catch((error: unknown) => {
        onEngineError(error);
        // The ending could not be written either (the storage refuses writes: a full disk). Stop
        // producing the run and renewing its lease, so it runs out and a reaper (of any process)
        // ends the run once writes work again, instead of the run blocking its session for good.
        if (!record.isTerminal()) finishProduced(seed.runId);
      });
  };

  const entryOf = async (runId: string): Promise<RunEntry | null> => {
    const mine = produced.get(runId);
    if (mine !== undefined) return mine.entry;
    const stored = await storage.getRun(runId);
    if (stored === null) return null;
    const { subjectId, userMessageId, createdAt } = stored;
    if (stored.finalSnapshot !== null) {
      return {
        record: new EndedRunRecord(runId, stored.sessionId, stored.finalSnapshot, null),
        subjectId,
        userMessageId,
        createdAt,
      };
    }
    const events = await storage.readEvents(runId, 0);
    return { record: newRecord(runId, stored.sessionId, events), subjectId, userMessageId, createdAt };
  };

  /** Adopts a run whose lease this process took over: resumes a run waiting for an answer, ends any other. */
  const adopt = async (runId: string): Promise<void> => {
    const stored = await storage.getRun(runId);
    if (stored === null || stored.endedAt !== null) return;
    const record = newRecord(runId, stored.sessionId, await storage.readEvents(runId, 0));
    const entry: RunEntry = {
      record,
      subjectId: stored.subjectId,
      userMessageId: stored.userMessageId,
      createdAt: stored.createdAt,
    };
    const { status } = record.snapshot();
    // A run that waited for an approval or a browser tool goes on; anything else was cut off.
    if ((status === 'awaiting_input' || status === 'awaiting_tool') && engine.resume !== undefined) {
      produce(
        entry,
        {
          runId,
          sessionId: stored.sessionId,
          ...stored.start,
          ...historyOf(await readShownBranch(storage, stored.sessionId)),
        },
        'resume',
      );
      return;
    }
    await record.transact((s) =>
      buildLeaseExpiredEnding(s, {
        cancelReason: 'cancelled',
        newMessageId: () => ids('msg'),
        correlationId: ids('cor'),
      }),
    );
  };

  // All at once, so a process producing many runs renews them in one pipelined turn rather than one
  // round trip after another (500 sequential renewals on a loaded machine outlasted a 10 s lease).
  const renewLeases = async (): Promise<void> => {
    const expiresAt = clock.now() + leaseTtlMs;
    const renewals = [...produced].map(async ([runId, run]) => {
      if (await storage.renewLease(runId, owner, expiresAt)) return;
      // Another process took the run over (this one stalled past the lease): stop producing it.
      run.controller.abort('lease lost');
      finishProduced(runId);
    });
    await Promise.all(renewals);
  };

  const reap = async (): Promise<void> => {
    const now = clock.now();
    for (const lease of await storage.listExpiredLeases(now, 100)) {
      if (produced.has(lease.runId)) continue;
      if (!(await storage.takeExpiredLease(lease.runId, owner, now, now + leaseTtlMs))) continue;
      await adopt(lease.runId).catch(report('reaper', lease.runId));
    }
  };

  const every = (ms: number, task: () => Promise<void>, where: string): void => {
    const schedule = (): void => {
      if (isClosed) return;
      const timer = clock.setTimeout(() => {
        timers.delete(timer);
        void task().catch(report(where)).finally(schedule);
      }, ms);
      unrefTimer(timer);
      timers.add(timer);
    };
    schedule();
  };
  every(Math.max(50, Math.floor(leaseTtlMs / 3)), renewLeases, 'lease renewal');
  every(Math.max(50, Math.floor(leaseTtlMs / 2)), reap, 'reaper');

  return {
    newRecord,
    newLease: () => ({ owner, expiresAt: clock.now() + leaseTtlMs }),
    produce,
    entryOf,
    abort(runId, reason) {
      const run = produced.get(runId);
      if (run !== undefined && !run.controller.signal.aborted) run.controller.abort(reason);
    },
    armCancelReaper(runId, timer) {
      const run = produced.get(runId);
      if (run === undefined) {
        timers.add(timer);
        return;
      }
      run.cancelReaper = timer;
    },
    activeCount(subjectId) {
      let count = 0;
      for (const run of produced.values()) if (run.entry.subjectId === subjectId) count += 1;
      return count;
    },
    async afterCreate(session) {
      await storage.enforceRetention({
        ...retentionCaps(retention, clock.now()),
        touched: { sessionId: session.sessionId, subjectId: session.subjectId },
      });
    },
    async sweep() {
      const now = clock.now();
      let compacted: number;
      // A run that ended exactly `eventRetentionMs` ago is due.
      do compacted = await storage.compactEndedRuns(now - retention.eventRetentionMs + 1, 500);
      while (compacted === 500);
      await storage.deleteExpiredIdempotency(now);
      await storage.enforceRetention(retentionCaps(retention, now));
    },
    reap,
    close() {
      isClosed = true;
      for (const timer of timers) clock.clearTimeout(timer);
      timers.clear();
      for (const run of produced.values()) if (run.cancelReaper !== null) clock.clearTimeout(run.cancelReaper);
    },
  };
}

/** The run's first `RUN_STATUS_CHANGED{cancelling}` after `afterSeq`, if any (what a cancel appended). */
export async function findCancellingEvent(
  storage: AgentStorage,
  runId: string,
  afterSeq: number,
): Promise<EventEnvelope<'RUN_STATUS_CHANGED'> | undefined> {
  const events = await storage.readEvents(runId, afterSeq);
  return events.find(
    (event): event is EventEnvelope<'RUN_STATUS_CHANGED'> =>
      event.type === 'RUN_STATUS_CHANGED' &&
      (event as EventEnvelope<'RUN_STATUS_CHANGED'>).data.status === 'cancelling',
  );
}

/**
 * The seq of the run's `INTERRUPT_RESOLVED` for `interruptId`, read from its log: what an ended
 * run loaded from storage (whose record knows no resolutions) answers; undefined once compacted.
 */
export async function findResolutionSeq(
  storage: AgentStorage,
  runId: string,
  interruptId: string,
): Promise<number | undefined> {
  const events = await storage.readEvents(runId, 0);
  return events.find(
    (event) =>
      event.type === 'INTERRUPT_RESOLVED' &&
      (event as EventEnvelope<'INTERRUPT_RESOLVED'>).data.interruptId === interruptId,
  )?.seq;
}

function retentionCaps(policy: RetentionPolicy, now: number) {
  return {
    now,
    sessionIdleTtlMs: policy.sessionIdleTtlMs,
    maxSessionsPerSubject: policy.maxSessionsPerSubject,
    maxRunsPerSession: policy.maxRunsPerSession,
    maxSessions: policy.maxSessions,
    maxRuns: policy.maxRuns,
    protectActiveSessionsMs: policy.protectActiveSessionsMs,
  };
}
