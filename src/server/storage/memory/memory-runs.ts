import type { EventEnvelope } from '../../../core/protocol.ts';
import { EventLogConflictError } from '../../runs/event-log.ts';
import { RunClosedError } from '../../runs/run-handle.ts';
import { checkAppendBatch } from '../append-rules.ts';
import { IdempotencyLockLostError } from '../storage-port.ts';
import type { RunStorage, StoredSession } from '../storage-port.ts';
import { completeIdempotencyRecord, holdsIdempotencyLock } from './memory-idempotency.ts';
import { moveHistory } from './memory-state.ts';
import type { MemoryState } from './memory-state.ts';

/** The runs and events role of the in-memory store: its doorbell is in-process. */
export function createMemoryRunStorage(state: MemoryState): RunStorage {
  const { sessions, sessionRunIds, sessionMessages, runs, leases, creationNumbers, doorbells } = state;
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
      if (command.idempotency !== undefined && !holdsIdempotencyLock(state, command.idempotency)) {
        return { kind: 'idempotency_lost' };
      }
      const leaving = [...(replacesRunId === undefined ? [] : [replacesRunId]), ...(command.leavesHistory ?? [])];
      moveHistory(state, { sessionId: session.sessionId, runIds: leaving, isInHistory: false });
      const { runId } = command.run;
      session.activeRunId = runId;
      session.lastRunId = runId;
      session.updatedAt = command.run.createdAt;
      session.title ??= command.title;
      sessions.set(session.sessionId, session);
      if (!creationNumbers.has(session.sessionId)) {
        creationNumbers.set(session.sessionId, (state.sessionsCreated += 1));
      }
      sessionRunIds.set(session.sessionId, [...(sessionRunIds.get(session.sessionId) ?? []), runId]);
      runs.set(runId, {
        run: { ...command.run, firstSeq: 1, lastSeq: 1, endedAt: null, finalSnapshot: null, isCompacted: false },
        events: [command.started],
      });
      leases.set(runId, { runId, ...command.lease });
      if (command.idempotency !== undefined) completeIdempotencyRecord(state, command.idempotency);
      doorbells.ring(runId, 1);
      return { kind: 'created', session: { ...session } };
    },
    async getRun(runId) {
      const stored = runs.get(runId);
      return stored === undefined ? null : { ...stored.run };
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
      if (options.idempotency !== undefined && !holdsIdempotencyLock(state, options.idempotency)) {
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
      if (options.idempotency !== undefined) completeIdempotencyRecord(state, options.idempotency);
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
  };
}
