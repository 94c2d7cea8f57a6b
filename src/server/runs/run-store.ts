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
import { closeOpenItems, pendingInputIds } from './close-open-items.ts';
import type { EventLog } from './event-log.ts';
import type { PendingEvent, RunEngine, RunHandle, Subject } from './run-handle.ts';
import type { RunRecord } from './run-record.ts';
import { createRunRecord } from './run-record.ts';
import type { Clock } from '../../core/clock.ts';
import { unrefTimer } from '../unref-timer.ts';

/** A conversation: pinned to one agent version, at most one active run. */
export interface SessionRecord {
  sessionId: string;
  subjectId: string;
  agentVersionId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  runIds: string[];
  activeRunId: string | null;
  lastRunId: string | null;
}

/** A committed run: its writer plus who owns it and what started it. */
export interface RunEntry {
  record: RunRecord;
  handle: RunHandle;
  subjectId: string;
  userMessageId: string;
  createdAt: number;
  controller: AbortController;
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
  /** How long a terminal run's events are kept before the log is trimmed. */
  eventRetentionMs: number;
  /** Where engine failures are reported (never to the browser). */
  onEngineError: (error: unknown, context: { runId: string; correlationId: string }) => void;
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
  /** Trims the logs of runs that ended more than the retention ago. */
  sweep(): Promise<void>;
  /** Stops the reapers (runs themselves are left to their engines). */
  close(): void;
}

const TITLE_CHARS = 80;

/** Creates the in-process run store over an {@link EventLog}. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { eventLog, engine, clock, ids } = options;
  const sessions = new Map<string, SessionRecord>();
  const runs = new Map<string, RunEntry>();

  const finishAbandoned = async (entry: RunEntry, correlationId: string): Promise<void> => {
    await entry.record.transact((s): PendingEvent[] => {
      if (s.status === 'cancelling') return forcedCancel(s, entry);
      return [
        ...closeOpenItems(s, { reason: 'error', newMessageId: () => ids('msg') }),
        {
          type: 'RUN_ERROR',
          data: {
            code: 'INTERNAL',
            message: 'The agent stopped unexpectedly. Please try again.',
            retryable: true,
            correlationId,
            unconsumedInputIds: pendingInputIds(s),
          },
        },
      ];
    });
  };

  const forcedCancel = (s: RunSnapshot, entry: RunEntry): PendingEvent[] => {
    const reason = entry.controller.signal.reason as unknown;
    return [
      ...closeOpenItems(s, { reason: 'cancelled', newMessageId: () => ids('msg') }),
      {
        type: 'RUN_FINISHED',
        data: {
          outcome: { type: 'cancelled', ...(typeof reason === 'string' ? { reason } : {}), forced: true },
          unconsumedInputIds: pendingInputIds(s),
        },
      },
    ];
  };

  const startEngine = (entry: RunEntry): void => {
    const correlationId = ids('cor');
    void Promise.resolve()
      .then(() => engine.start(entry.handle))
      .catch((error: unknown) => options.onEngineError(error, { runId: entry.record.runId, correlationId }))
      .then(() => (entry.record.isTerminal() ? undefined : finishAbandoned(entry, correlationId)))
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
      let session: SessionRecord;
      let isNewSession = false;
      if (input.sessionId === undefined) {
        session = {
          sessionId: ids('ses'),
          subjectId: input.subject.id,
          agentVersionId: input.agent.versionId,
          title: null,
          createdAt: now,
          updatedAt: now,
          runIds: [],
          activeRunId: null,
          lastRunId: null,
        };
        isNewSession = true;
      } else {
        const existing = sessions.get(input.sessionId);
        if (existing === undefined || existing.subjectId !== input.subject.id) {
          return fail({ code: 'NOT_FOUND', detail: 'No such session.' });
        }
        session = existing;
        if (session.agentVersionId !== input.agent.versionId) {
          return fail({
            code: 'AGENT_VERSION_MISMATCH',
            detail: 'The session is pinned to another agent version.',
            details: { agentVersionId: session.agentVersionId },
          });
        }
        if (session.activeRunId !== null) {
          const activeRunId = session.activeRunId;
          return fail({
            code: 'RUN_ALREADY_ACTIVE',
            detail: 'Attach to the active run or add an input to it.',
            details: { activeRunId },
            extra: { activeRunId },
          });
        }
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
        handle: undefined as unknown as RunHandle,
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
        if (session.activeRunId === runId) session.activeRunId = null;
        session.updatedAt = clock.now();
      };
      const text = input.input.content.map((part) => part.text).join('');
      entry.handle = {
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
      };
      // Reserve the session's active slot synchronously, so a concurrent create sees it.
      session.activeRunId = runId;
      if (isNewSession) sessions.set(session.sessionId, session);
      try {
        await entry.record.append('RUN_STARTED', {
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
        });
      } catch (error) {
        if (session.activeRunId === runId) session.activeRunId = null;
        if (isNewSession) sessions.delete(session.sessionId);
        throw error;
      }
      runs.set(runId, entry);
      session.runIds.push(runId);
      session.lastRunId = runId;
      session.updatedAt = now;
      session.title ??= makeTitle(text);
      startEngine(entry);
      return { entry, session };
    },
    getRun: (runId) => runs.get(runId),
    getSession: (sessionId) => sessions.get(sessionId),
    listSessions: (subjectId) => [...sessions.values()].filter((s) => s.subjectId === subjectId).reverse(),
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
        entry.controller.abort(reason ?? 'cancelled');
        entry.reaper = clock.setTimeout(() => {
          entry.reaper = null;
          void entry.record
            .transact((s) => forcedCancel(s, entry))
            .catch((error: unknown) => options.onEngineError(error, { runId, correlationId: ids('cor') }));
        }, options.cancelGraceMs);
        unrefTimer(entry.reaper);
      }
      return { httpStatus: 202, status: 'cancelling', eventSeq: entry.cancelSeq ?? snapshot.lastSeq };
    },
    async sweep() {
      const now = clock.now();
      for (const entry of runs.values()) {
        if (entry.terminalAt === null || entry.isTrimmed || now - entry.terminalAt < options.eventRetentionMs) continue;
        entry.isTrimmed = true;
        await eventLog.trim(entry.record.runId, entry.record.snapshot().lastSeq);
      }
    },
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

function makeTitle(text: string): string | null {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return null;
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}
