import { roomUnderCaps } from '../storage-port.ts';
import type { RetentionStorage, StoredSession } from '../storage-port.ts';
import { deleteRun, removeSession } from './memory-state.ts';
import type { MemoryState } from './memory-state.ts';

/** The retention and capacity role of the in-memory store. */
export function createMemoryRetentionStorage(state: MemoryState): RetentionStorage {
  const { sessions, sessionRunIds, runs } = state;
  return {
    async enforceRetention(request) {
      const { touched } = request;
      const deleted = { sessionIds: [] as string[], runIds: [] as string[] };
      const isEvictable = (session: StoredSession): boolean =>
        session.activeRunId === null && session.sessionId !== touched?.sessionId;
      const evict = (session: StoredSession): void => {
        deleted.runIds.push(...(sessionRunIds.get(session.sessionId) ?? []));
        deleted.sessionIds.push(session.sessionId);
        removeSession(state, session.sessionId);
      };
      // Array.prototype.sort is stable: equal times keep creation order.
      const byActivity = (): StoredSession[] => [...sessions.values()].sort((a, b) => a.updatedAt - b.updatedAt);
      if (touched !== undefined) {
        const own = sessionRunIds.get(touched.sessionId) ?? [];
        for (const runId of own.slice(0, Math.max(0, own.length - Math.max(1, request.maxRunsPerSession)))) {
          deleted.runIds.push(runId);
          deleteRun(state, runId);
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
    async counts() {
      return { sessions: sessions.size, runs: runs.size };
    },
  };
}
