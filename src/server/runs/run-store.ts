import type {
  ContextRef,
  CreateRunRequest,
  EventEnvelope,
  InputContent,
  ReasoningEffort,
  RunSnapshot,
  SnapshotMessage,
} from '../../core/protocol.ts';
import { PROTOCOL_VERSION } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { buildAbandonedEnding, buildForcedCancel } from './forced-endings.ts';
import type { EventLog } from './event-log.ts';
import type { RunEngine, RunHandle, Subject } from './run-handle.ts';
import type { RunRecord } from './run-record.ts';
import { createRunRecord } from './run-record.ts';
import type { RetentionPolicy } from './run-retention.ts';
import { createRunRetention } from './run-retention.ts';
import type { SessionRecord } from './session-index.ts';
import { createSessionIndex, makeSessionTitle, openSessionForRun } from './session-index.ts';
import type { Clock } from '../../core/clock.ts';
import { ACTIVE_RUNS_RETRY_AFTER_MS } from '../limits/rate-limits.ts';
import { unrefTimer } from '../unref-timer.ts';

export type { SessionRecord } from './session-index.ts';

/**
 * A committed run: its writer plus who owns it and what started it. The engine's `RunHandle` is
 * not kept here, so what only a live run needs (its history, its input) goes with the engine.
 */
export interface RunEntry {
  record: RunRecord;
  subjectId: string;
  userMessageId: string;
  createdAt: number;
  /** Aborts the engine on cancel; dropped once the run has ended. */
  controller: AbortController | null;
  cancelSeq: number | null;
  terminalAt: number | null;
  isTrimmed: boolean;
  reaper: unknown;
}

/** What `createRun` needs; the route has validated it. */
export interface CreateRunInput {
  subject: Subject;
  sessionId?: string;
  agent: { agentId: string; versionId: string };
  model: { modelId: string; reasoningEffort?: ReasoningEffort } | null;
  input: { clientMessageId?: string; content: InputContent[]; contextRefs?: ContextRef[] };
  options: NonNullable<CreateRunRequest['options']>;
}

/** Options of {@link createRunStore}. */
export interface RunStoreOptions {
  eventLog: EventLog;
  engine: RunEngine;
  clock: Clock;
  ids: (prefix: string) => string;
  /** How long a cancelled run's engine may take before the reaper force-closes it. */
  cancelGraceMs: number;
  /** What is kept how long (trimming, idle sessions, caps). */
  retention: RetentionPolicy;
  /** Runs of one subject not yet ended; one more is `429 RATE_LIMITED` (docs/protocol.md §16.1). */
  maxActiveRunsPerSubject: number;
  /** `RUN_STARTED` (built from the request) past this many bytes is `422 VALIDATION_FAILED`. */
  maxEventBytes: number;
  /** Where engine failures are reported (never to the browser). */
  onEngineError: (error: unknown, context: { runId: string; correlationId: string }) => void;
  /** Where other failures (removing an evicted run's log) are reported. */
  onError: (error: unknown, context: { runId: string }) => void;
}

/** Sessions and runs of one server: creates runs, hands them to the engine, cancels and reaps. */
export interface RunStore {
  /** Creates (or continues) a session and commits a run with `RUN_STARTED`, then starts the engine. */
  createRun(input: CreateRunInput): Promise<{ entry: RunEntry; session: SessionRecord }>;
  getRun(runId: string): RunEntry | undefined;
  getSession(sessionId: string): SessionRecord | undefined;
  /** The subject's sessions, newest first. */
  listSessions(subjectId: string): SessionRecord[];
  /** Settled messages (terminal runs only) of a session, oldest first. */
  settledMessages(sessionId: string): SnapshotMessage[];
  /** Requests cancellation; `200` when the run had already ended. */
  cancelRun(
    runId: string,
    reason?: string,
  ): Promise<{ httpStatus: 200 | 202; status: RunSnapshot['status']; eventSeq?: number }>;
  /** Trims the logs of runs that ended more than the retention ago and evicts idle sessions. */
  sweep(): Promise<void>;
  /** How many sessions and runs are kept (for tests, operators and the memory benchmark). */
  counts(): { sessions: number; runs: number };
  /** Stops the reapers (runs themselves are left to their engines). */
  close(): void;
}

/** Creates the in-process run store over an {@link EventLog}. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { eventLog, engine, clock, ids } = options;
  const sessions = createSessionIndex();
  const runs = new Map<string, RunEntry>();
  const activeRunsBySubject = new Map<string, number>();
  const retention = createRunRetention({
    policy: options.retention,
    sessions,
    runs,
    eventLog,
    clock,
    onError: options.onError,
  });
  const countActive = (subjectId: string, delta: 1 | -1): void => {
    const count = (activeRunsBySubject.get(subjectId) ?? 0) + delta;
    if (count > 0) activeRunsBySubject.set(subjectId, count);
    else activeRunsBySubject.delete(subjectId);
  };

  const endingOptions = (entry: RunEntry) => ({
    cancelReason: entry.controller?.signal.reason as unknown,
    newMessageId: () => ids('msg'),
  });

  const startEngine = (entry: RunEntry, handle: RunHandle): void => {
    const correlationId = ids('cor');
    void Promise.resolve()
      .then(() => engine.start(handle))
      .catch((error: unknown) => options.onEngineError(error, { runId: entry.record.runId, correlationId }))
      .then(() =>
        entry.record.isTerminal()
          ? undefined
          : entry.record.transact((s) => buildAbandonedEnding(s, { ...endingOptions(entry), correlationId })),
      )
      .catch((error: unknown) => options.onEngineError(error, { runId: entry.record.runId, correlationId }));
  };

  const history = (session: SessionRecord): SnapshotMessage[] =>
    settled(session).filter((m) => m.role !== 'reasoning' && m.status !== 'streaming' && m.content !== '');

  const settled = (session: SessionRecord): SnapshotMessage[] =>
    session.runIds.flatMap((runId) => {
      const entry = runs.get(runId);
      return entry !== undefined && entry.record.isTerminal() ? entry.record.snapshot().messages : [];
    });

  return {
    async createRun(input) {
      const now = clock.now();
      const { session, isNewSession } = openSessionForRun(sessions, {
        sessionId: input.sessionId,
        subjectId: input.subject.id,
        agentVersionId: input.agent.versionId,
        newSessionId: () => ids('ses'),
        now,
      });
      const maxActive = options.maxActiveRunsPerSubject;
      if ((activeRunsBySubject.get(input.subject.id) ?? 0) >= maxActive) {
        return fail({
          code: 'RATE_LIMITED',
          detail: `At most ${maxActive} answers may run at once; wait for one to finish.`,
          retryAfterMs: ACTIVE_RUNS_RETRY_AFTER_MS,
          details: { limit: 'maxActiveRuns', maxActiveRuns: maxActive },
        });
      }
      const runId = ids('run');
      const userMessageId = ids('msg');
      const controller = new AbortController();
      const entry: RunEntry = {
        record: createRunRecord({
          runId,
          sessionId: session.sessionId,
          eventLog,
          clock,
          ids,
          onTerminal: () => onTerminal(entry),
        }),
        subjectId: input.subject.id,
        userMessageId,
        createdAt: now,
        controller,
        cancelSeq: null,
        terminalAt: null,
        isTrimmed: false,
        reaper: null,
      };
      const onTerminal = (ended: RunEntry): void => {
        ended.terminalAt = clock.now();
        if (ended.reaper !== null) clock.clearTimeout(ended.reaper);
        ended.reaper = null;
        // Keep only what an ended run answers with: its snapshot (docs/server.md, "Memory").
        ended.record = ended.record.compact();
        ended.controller = null;
        countActive(ended.subjectId, -1);
        if (session.activeRunId === runId) session.activeRunId = null;
        session.updatedAt = clock.now();
        sessions.touch(session);
      };
      const text = input.input.content.map((part) => part.text).join('');
      const handle: RunHandle = {
        runId,
        sessionId: session.sessionId,
        subject: input.subject,
        input: {
          messageId: userMessageId,
          text,
          ...(input.input.contextRefs === undefined ? {} : { contextRefs: input.input.contextRefs }),
        },
        options: input.options,
        history: history(session),
        signal: controller.signal,
        append: (type, data) => entry.record.append(type, data),
        transact: (build) => entry.record.transact(build),
        snapshot: () => entry.record.snapshot(),
        waitFor: (predicate, signal) => entry.record.waitFor(predicate, signal),
        readLog: () => eventLog.read(runId, 0),
      };
      // Reserve the session's active slot (and the subject's count) synchronously, so a concurrent create sees it.
      session.activeRunId = runId;
      countActive(input.subject.id, 1);
      if (isNewSession) sessions.add(session);
      try {
        await entry.record.append(
          'RUN_STARTED',
          {
            protocolVersion: PROTOCOL_VERSION,
            agent: input.agent,
            ...(input.model === null ? {} : { model: input.model }),
            input: {
              messageId: userMessageId,
              ...optional('clientMessageId', input.input.clientMessageId),
              content: input.input.content,
              ...optional('contextRefs', input.input.contextRefs),
            },
            traceId: ids('trc'),
          },
          { maxEventBytes: options.maxEventBytes, field: 'input' },
        );
      } catch (error) {
        if (session.activeRunId === runId) session.activeRunId = null;
        countActive(input.subject.id, -1);
        if (isNewSession) sessions.remove(session);
        throw error;
      }
      runs.set(runId, entry);
      session.runIds.push(runId);
      session.lastRunId = runId;
      session.updatedAt = now;
      session.title ??= makeSessionTitle(text);
      sessions.touch(session);
      retention.afterRunCreated(session);
      startEngine(entry, handle);
      return { entry, session };
    },
    getRun: (runId) => runs.get(runId),
    getSession: (sessionId) => sessions.get(sessionId),
    listSessions: (subjectId) => sessions.ofSubject(subjectId).reverse(),
    settledMessages(sessionId) {
      const session = sessions.get(sessionId);
      return session === undefined ? [] : settled(session);
    },
    async cancelRun(runId, reason) {
      const entry = runs.get(runId);
      if (entry === undefined) return fail({ code: 'NOT_FOUND', detail: 'No such run.' });
      const appended = await entry.record.transact((s) =>
        s.status === 'cancelling'
          ? []
          : [{ type: 'RUN_STATUS_CHANGED', data: { status: 'cancelling', ...optional('reason', reason) } }],
      );
      const snapshot = entry.record.snapshot();
      if (entry.record.isTerminal()) return { httpStatus: 200, status: snapshot.status };
      const first = appended[0] as EventEnvelope | undefined;
      if (first !== undefined) {
        entry.cancelSeq = first.seq;
        entry.controller?.abort(reason ?? 'cancelled');
        entry.reaper = clock.setTimeout(() => {
          entry.reaper = null;
          void entry.record
            .transact((s) => buildForcedCancel(s, endingOptions(entry)))
            .catch((error: unknown) => options.onEngineError(error, { runId, correlationId: ids('cor') }));
        }, options.cancelGraceMs);
        unrefTimer(entry.reaper);
      }
      return { httpStatus: 202, status: 'cancelling', eventSeq: entry.cancelSeq ?? snapshot.lastSeq };
    },
    sweep: () => retention.sweep(),
    counts: () => ({ sessions: sessions.size(), runs: runs.size }),
    close() {
      for (const entry of runs.values()) {
        if (entry.reaper !== null) clock.clearTimeout(entry.reaper);
        entry.reaper = null;
      }
    },
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
