import type { EventEnvelope, SnapshotMessage } from '../../core/protocol.ts';
import { EventLogConflictError } from '../runs/event-log.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import { checkAppendBatch } from './append-rules.ts';
import { createDoorbells } from './doorbells.ts';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.ts';
import type { SessionCursor } from './session-cursor.ts';
import { IdempotencyLockLostError, roomUnderCaps } from './storage-port.ts';
import type {
  AgentStorage,
  IdempotencyCompletion,
  Page,
  RunLease,
  StoredResponse,
  StoredRun,
  StoredSession,
  StoredFeedback,
} from './storage-port.ts';

interface MemoryRun {
  run: StoredRun;
  events: EventEnvelope[];
}

/** A settled message with the run that settled it. */
interface SettledMessage {
  runId: string;
  message: SnapshotMessage;
}

type MemoryIdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string; token: string; lockedUntil: number; expiresAt: number }
  | { state: 'completed'; fingerprint: string; response: StoredResponse; expiresAt: number };

/**
 * Creates the in-memory {@link AgentStorage}: one process, nothing survives it. For unit tests
 * and `AGENT_CHAT_DB=:memory:`; it passes the same contract suite as the durable stores.
 */
export function createMemoryStorage(): AgentStorage {
  const sessions = new Map<string, StoredSession>();
  const sessionRunIds = new Map<string, string[]>();
  /** Every settled message of each session, in settle order, whether in its history or not. */
  const sessionMessages = new Map<string, SettledMessage[]>();
  /** The runs of each session whose messages are out of its history (another branch is shown). */
  const runsOutOfHistory = new Map<string, Set<string>>();
  const runs = new Map<string, MemoryRun>();
  const idempotency = new Map<string, MemoryIdempotencyRecord>();
  const leases = new Map<string, RunLease>();
  const settings = new Map<string, string>();
  /** AG-UI thread bindings by subject and thread, and each session's bound thread keys. */
  const agUiThreads = new Map<string, string>();
  const agUiThreadsOfSession = new Map<string, Set<string>>();
  const agUiSegments = new Map<string, string>();
  // Per run: each person's vote per message, by `JSON.stringify([subjectId, messageId])`.
  const feedbackOfRun = new Map<string, Map<string, StoredFeedback>>();
  /** Each session's creation number (1, 2, …): the order of equal activity times in listings. */
  const creationNumbers = new Map<string, number>();
  let sessionsCreated = 0;
  const doorbells = createDoorbells();

  const holdsLock = (completion: IdempotencyCompletion): boolean => {
    const record = idempotency.get(completion.recordId);
    return record?.state === 'in_progress' && record.token === completion.token;
  };
  const complete = (completion: IdempotencyCompletion): void => {
    const record = idempotency.get(completion.recordId);
    if (record === undefined) return;
    idempotency.set(completion.recordId, {
      state: 'completed',
      fingerprint: record.fingerprint,
      response: completion.response,
      expiresAt: completion.expiresAt,
    });
  };

  /** The session's history (the branch shown): its settled messages, oldest first, but those of runs out of it. */
  const historyOf = (sessionId: string): SnapshotMessage[] => {
    const out = runsOutOfHistory.get(sessionId);
    return (sessionMessages.get(sessionId) ?? [])
      .filter((settled) => out?.has(settled.runId) !== true)
      .map((settled) => settled.message);
  };
  /** Takes the messages of the session's ended runs `runIds` out of its history, or brings them back. */
  const moveHistory = (sessionId: string, runIds: readonly string[], isInHistory: boolean): void => {
    const out = runsOutOfHistory.get(sessionId) ?? new Set<string>();
    for (const runId of runIds) {
      const run = runs.get(runId)?.run;
      if (run?.sessionId !== sessionId || run.endedAt === null) continue;
      if (isInHistory) out.delete(runId);
      else out.add(runId);
    }
    if (out.size > 0) runsOutOfHistory.set(sessionId, out);
    else runsOutOfHistory.delete(sessionId);
  };

  const deleteRun = (runId: string): void => {
    const stored = runs.get(runId);
    if (stored === undefined) return;
    runs.delete(runId);
    leases.delete(runId);
    agUiSegments.delete(runId);
    feedbackOfRun.delete(runId);
    const { sessionId } = stored.run;
    sessionRunIds.set(
      sessionId,
      (sessionRunIds.get(sessionId) ?? []).filter((id) => id !== runId),
    );
    sessionMessages.set(
      sessionId,
      (sessionMessages.get(sessionId) ?? []).filter((settled) => settled.runId !== runId),
    );
    runsOutOfHistory.get(sessionId)?.delete(runId);
  };
  const removeSession = (sessionId: string): void => {
    for (const runId of sessionRunIds.get(sessionId) ?? []) deleteRun(runId);
    sessions.delete(sessionId);
    for (const key of agUiThreadsOfSession.get(sessionId) ?? []) agUiThreads.delete(key);
    agUiThreadsOfSession.delete(sessionId);
    creationNumbers.delete(sessionId);
    sessionRunIds.delete(sessionId);
    sessionMessages.delete(sessionId);
    runsOutOfHistory.delete(sessionId);
  };

  return {
    async createRun(command) {
      let session: StoredSession;
      if (command.session.kind === 'new') {
        session = { ...command.session.session };
      } else {
        const existing = sessions.get(command.session.sessionId);
        if (existing === undefined || existing.subjectId !== command.run.subjectId)
          return { kind: 'session_not_found' };
        if (existing.agentVersionId !== command.started.data.agent.versionId) {
          return { kind: 'version_mismatch', agentVersionId: existing.agentVersionId };
        }
        if (existing.activeRunId !== null) return { kind: 'run_active', activeRunId: existing.activeRunId };
        session = { ...existing };
      }
      const { replacesRunId } = command;
      if (replacesRunId !== undefined && session.lastRunId !== replacesRunId) return { kind: 'not_latest_run' };
      if (command.idempotency !== undefined && !holdsLock(command.idempotency)) return { kind: 'idempotency_lost' };
      const leaving = [...(replacesRunId === undefined ? [] : [replacesRunId]), ...(command.leavesHistory ?? [])];
      moveHistory(session.sessionId, leaving, false);
      const { runId } = command.run;
      session.activeRunId = runId;
      session.lastRunId = runId;
      session.updatedAt = command.run.createdAt;
      session.title ??= command.title;
      sessions.set(session.sessionId, session);
      if (!creationNumbers.has(session.sessionId)) creationNumbers.set(session.sessionId, (sessionsCreated += 1));
      sessionRunIds.set(session.sessionId, [...(sessionRunIds.get(session.sessionId) ?? []), runId]);
      runs.set(runId, {
        run: { ...command.run, firstSeq: 1, lastSeq: 1, endedAt: null, finalSnapshot: null, isCompacted: false },
        events: [command.started],
      });
      leases.set(runId, { runId, ...command.lease });
      if (command.idempotency !== undefined) complete(command.idempotency);
      doorbells.ring(runId, 1);
      return { kind: 'created', session: { ...session } };
    },
    async getRun(runId) {
      const stored = runs.get(runId);
      return stored === undefined ? null : { ...stored.run };
    },
    async getSession(sessionId) {
      const session = sessions.get(sessionId);
      return session === undefined ? null : { ...session };
    },
    async listSessions(subjectId, page) {
      const cursor = page.after === undefined ? undefined : decodeSessionCursor(page.after);
      if (cursor === null) return null;
      // Equal times: latest created first; the cursor's tie-break is the creation number, zero-padded.
      const keyed = [...sessions.values()]
        .filter((session) => session.subjectId === subjectId)
        .map((session) => ({
          session,
          key: { updatedAt: session.updatedAt, tieBreak: padNumber(creationNumbers.get(session.sessionId) ?? 0) },
        }))
        .sort((a, b) => compareCursors(b.key, a.key));
      const rest = cursor === undefined ? keyed : keyed.filter(({ key }) => compareCursors(key, cursor) < 0);
      const page1 = rest.slice(0, page.limit);
      const last = page1[page1.length - 1];
      return {
        items: page1.map(({ session }) => ({ ...session })),
        next: rest.length > page.limit && last !== undefined ? encodeSessionCursor(last.key) : null,
      };
    },
    async countSessionMessages(sessionId) {
      return historyOf(sessionId).filter((m) => m.role !== 'reasoning').length;
    },
    async updateSessionTitle(request) {
      const session = sessions.get(request.sessionId);
      if (session === undefined || session.subjectId !== request.subjectId) return { kind: 'not_found' };
      if (request.expectedTitle !== undefined && session.title !== request.expectedTitle) {
        return { kind: 'title_changed' };
      }
      const updated = { ...session, title: request.title };
      sessions.set(request.sessionId, updated);
      return { kind: 'updated', session: { ...updated } };
    },
    async deleteSession(request) {
      const session = sessions.get(request.sessionId);
      if (session === undefined || session.subjectId !== request.subjectId) return { kind: 'not_found' };
      if (session.activeRunId !== null) return { kind: 'run_active', activeRunId: session.activeRunId };
      const runIds = [...(sessionRunIds.get(request.sessionId) ?? [])];
      removeSession(request.sessionId);
      return { kind: 'deleted', runIds };
    },
    async showBranch(request) {
      const session = sessions.get(request.sessionId);
      if (session === undefined || session.subjectId !== request.subjectId) return { kind: 'not_found' };
      if (session.activeRunId !== null) return { kind: 'run_active', activeRunId: session.activeRunId };
      moveHistory(request.sessionId, request.leave, false);
      moveHistory(request.sessionId, request.enter, true);
      return { kind: 'shown', session: { ...session } };
    },
    async listSessionRunIds(sessionId) {
      return [...(sessionRunIds.get(sessionId) ?? [])];
    },
    async listTurnLinks(sessionId) {
      return (sessionRunIds.get(sessionId) ?? []).flatMap((runId) => {
        const run = runs.get(runId)?.run;
        if (run === undefined) return [];
        const { parentMessageId, replacesRunId } = run.start;
        return [
          {
            runId,
            userMessageId: run.userMessageId,
            parentMessageId,
            ...(replacesRunId === undefined ? {} : { replacesRunId }),
            lastMessageId: run.finalSnapshot?.messages.at(-1)?.messageId ?? null,
          },
        ];
      });
    },
    async listMessages(sessionId, page) {
      const newestFirst = historyOf(sessionId).reverse();
      return pageOf(newestFirst, (m) => m.messageId, page.before, page.limit);
    },
    async listSettledToolCalls(sessionId) {
      return (sessionRunIds.get(sessionId) ?? []).flatMap((runId) => {
        const snapshot = runs.get(runId)?.run.finalSnapshot;
        return (snapshot?.toolCalls ?? []).map((call) => ({ ...call, runId }));
      });
    },
    async appendEvents(runId, expectedLastSeq, events, options = {}) {
      const stored = runs.get(runId);
      if (stored === undefined) throw new RangeError(`Run ${runId} does not exist.`);
      if (stored.run.endedAt !== null) throw new RunClosedError(runId);
      if (stored.run.lastSeq !== expectedLastSeq) {
        throw new EventLogConflictError(runId, expectedLastSeq, stored.run.lastSeq);
      }
      const isEnding = checkAppendBatch(runId, expectedLastSeq, events, options);
      if (events.length === 0) return;
      if (options.idempotency !== undefined && !holdsLock(options.idempotency)) {
        throw new IdempotencyLockLostError(options.idempotency.recordId);
      }
      const last = events[events.length - 1] as EventEnvelope;
      stored.events.push(...events);
      stored.run = { ...stored.run, lastSeq: last.seq };
      if (isEnding && options.finalSnapshot !== undefined) {
        stored.run = { ...stored.run, endedAt: last.timestamp, finalSnapshot: options.finalSnapshot };
        const sessionId = stored.run.sessionId;
        const settled = options.finalSnapshot.messages.map((message) => ({ runId, message }));
        sessionMessages.set(sessionId, [...(sessionMessages.get(sessionId) ?? []), ...settled]);
        const session = sessions.get(sessionId);
        if (session !== undefined) {
          sessions.set(sessionId, {
            ...session,
            activeRunId: session.activeRunId === runId ? null : session.activeRunId,
            updatedAt: last.timestamp,
          });
        }
        leases.delete(runId);
      }
      if (options.idempotency !== undefined) complete(options.idempotency);
      doorbells.ring(runId, last.seq);
    },
    async readEvents(runId, afterSeq, limit = Number.POSITIVE_INFINITY) {
      const stored = runs.get(runId);
      if (stored === undefined) return [];
      const start = Math.max(0, afterSeq + 1 - stored.run.firstSeq);
      return stored.events.slice(start, start + Math.min(limit, stored.events.length));
    },
    subscribe: (runId, onWake) => doorbells.subscribe(runId, onWake),
    async compactEndedRuns(endedBefore, limit) {
      let count = 0;
      for (const stored of runs.values()) {
        if (count >= limit) break;
        const { run } = stored;
        if (run.endedAt === null || run.isCompacted || run.endedAt >= endedBefore) continue;
        stored.events = [];
        stored.run = { ...run, firstSeq: run.lastSeq + 1, isCompacted: true };
        count += 1;
      }
      return count;
    },
    async enforceRetention(request) {
      const { touched } = request;
      const deleted = { sessionIds: [] as string[], runIds: [] as string[] };
      const isEvictable = (session: StoredSession): boolean =>
        session.activeRunId === null && session.sessionId !== touched?.sessionId;
      const evict = (session: StoredSession): void => {
        deleted.runIds.push(...(sessionRunIds.get(session.sessionId) ?? []));
        deleted.sessionIds.push(session.sessionId);
        removeSession(session.sessionId);
      };
      // Array.prototype.sort is stable: equal times keep creation order.
      const byActivity = (): StoredSession[] => [...sessions.values()].sort((a, b) => a.updatedAt - b.updatedAt);
      if (touched !== undefined) {
        const own = sessionRunIds.get(touched.sessionId) ?? [];
        for (const runId of own.slice(0, Math.max(0, own.length - Math.max(1, request.maxRunsPerSession)))) {
          deleted.runIds.push(runId);
          deleteRun(runId);
        }
        const mine = byActivity().filter((session) => session.subjectId === touched.subjectId);
        const excess = mine.length - request.maxSessionsPerSubject;
        if (excess > 0) mine.filter(isEvictable).slice(0, excess).forEach(evict);
      }
      // Past the store caps only sessions idle for the protection window go, oldest first.
      const protectedFrom = request.now - request.protectActiveSessionsMs;
      const isOverCaps = (): boolean => sessions.size > request.maxSessions || runs.size > request.maxRuns;
      for (const session of byActivity()) {
        if (!isOverCaps() || session.updatedAt > protectedFrom) break;
        if (isEvictable(session)) evict(session);
      }
      if (touched === undefined) {
        for (const session of byActivity()) {
          if (request.now - session.updatedAt < request.sessionIdleTtlMs) break;
          if (isEvictable(session)) evict(session);
        }
      }
      return deleted;
    },
    async checkSessionRoom(request) {
      const room = roomUnderCaps(request, { sessions: sessions.size, runs: runs.size });
      if (room.kind === 'room') return room;
      const protectedFrom = request.now - request.protectActiveSessionsMs;
      for (const session of sessions.values()) {
        if (session.activeRunId === null && session.updatedAt <= protectedFrom) return { kind: 'room' };
      }
      return room;
    },
    async beginIdempotency(request) {
      const existing = idempotency.get(request.recordId);
      if (existing !== undefined && existing.expiresAt > request.now) {
        if (existing.fingerprint !== request.fingerprint) return { kind: 'reused' };
        if (existing.state === 'completed') return { kind: 'replay', response: existing.response };
        if (existing.lockedUntil > request.now) return { kind: 'in_use' };
      }
      idempotency.set(request.recordId, {
        state: 'in_progress',
        fingerprint: request.fingerprint,
        token: request.token,
        lockedUntil: request.lockedUntil,
        expiresAt: request.expiresAt,
      });
      return { kind: 'started' };
    },
    async completeIdempotency(completion) {
      if (!holdsLock(completion)) return false;
      complete(completion);
      return true;
    },
    async abandonIdempotency(recordId, token) {
      const record = idempotency.get(recordId);
      if (record?.state === 'in_progress' && record.token === token) idempotency.delete(recordId);
    },
    async deleteExpiredIdempotency(now) {
      let count = 0;
      for (const [recordId, record] of idempotency) {
        if (record.expiresAt > now) continue;
        idempotency.delete(recordId);
        count += 1;
      }
      return count;
    },
    async renewLease(runId, owner, expiresAt) {
      const lease = leases.get(runId);
      if (lease?.owner !== owner) return false;
      leases.set(runId, { runId, owner, expiresAt });
      return true;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      const lease = leases.get(runId);
      if (lease === undefined || lease.expiresAt > now || runs.get(runId)?.run.endedAt !== null) return false;
      leases.set(runId, { runId, owner, expiresAt });
      return true;
    },
    async listExpiredLeases(now, limit) {
      return [...leases.values()]
        .filter((lease) => lease.expiresAt <= now)
        .sort((a, b) => a.expiresAt - b.expiresAt)
        .slice(0, limit)
        .map((lease) => ({ ...lease }));
    },
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      if (!sessions.has(sessionId)) return;
      const key = JSON.stringify([subjectId, threadId]);
      const previous = agUiThreads.get(key);
      if (previous !== undefined) agUiThreadsOfSession.get(previous)?.delete(key);
      agUiThreads.set(key, sessionId);
      agUiThreadsOfSession.set(sessionId, (agUiThreadsOfSession.get(sessionId) ?? new Set()).add(key));
    },
    async findAgUiThread(subjectId, threadId) {
      return agUiThreads.get(JSON.stringify([subjectId, threadId])) ?? null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      if (runs.has(runId)) agUiSegments.set(runId, agUiRunId);
    },
    async getAgUiSegment(runId) {
      return agUiSegments.get(runId) ?? null;
    },
    async putFeedback(feedback) {
      if (!runs.has(feedback.runId)) return false;
      const votes = feedbackOfRun.get(feedback.runId) ?? new Map<string, StoredFeedback>();
      votes.set(JSON.stringify([feedback.subjectId, feedback.messageId]), { ...feedback });
      feedbackOfRun.set(feedback.runId, votes);
      return true;
    },
    async listFeedback(runId, subjectId) {
      return [...(feedbackOfRun.get(runId)?.values() ?? [])]
        .filter((vote) => vote.subjectId === subjectId)
        .sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0))
        .map((vote) => ({ ...vote }));
    },
    async counts() {
      return { sessions: sessions.size, runs: runs.size };
    },
    async getOrCreateSetting(name, proposed) {
      const existing = settings.get(name);
      if (existing !== undefined) return existing;
      settings.set(name, proposed);
      return proposed;
    },
    async close() {},
  };
}

function pageOf<T>(
  newestFirst: readonly T[],
  idOf: (item: T) => string,
  cursor: string | undefined,
  limit = Number.POSITIVE_INFINITY,
): Page<T> | null {
  let start = 0;
  if (cursor !== undefined) {
    const index = newestFirst.findIndex((item) => idOf(item) === cursor);
    if (index < 0) return null;
    start = index + 1;
  }
  const items = newestFirst.slice(start, start + limit);
  const hasMore = start + limit < newestFirst.length;
  const last = items[items.length - 1];
  return { items, next: hasMore && last !== undefined ? idOf(last) : null };
}

function padNumber(value: number): string {
  return String(value).padStart(12, '0');
}

/** Orders two cursors by activity time, then by tie-break (zero-padded, so text order is number order). */
function compareCursors(a: SessionCursor, b: SessionCursor): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt - b.updatedAt;
  if (a.tieBreak === b.tieBreak) return 0;
  return a.tieBreak < b.tieBreak ? -1 : 1;
}
