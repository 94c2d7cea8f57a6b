import { roomUnderCaps } from '../storage-port.ts';
import type { RetentionRequest, RetentionStorage } from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';
import type { SqliteDeletes } from './sqlite-deletes.ts';

/** The retention and capacity role of the SQLite store: a retention pass is one immediate transaction. */
export function createSqliteRetentionStorage(context: SqliteContext, deletes: SqliteDeletes): RetentionStorage {
  const { db, sql } = context;
  const { deleteRun, deleteSession } = deletes;
  const enforceRetention = db.transaction((request: RetentionRequest) => {
    const { touched } = request;
    const deleted = { sessionIds: [] as string[], runIds: [] as string[] };
    const keep = touched?.sessionId ?? '';
    if (touched !== undefined) {
      const own = sql.runIdsOfSession.all(touched.sessionId).map((row) => row.run_id);
      for (const runId of own.slice(0, Math.max(0, own.length - Math.max(1, request.maxRunsPerSession)))) {
        deleteRun(runId);
        deleted.runIds.push(runId);
      }
      const excess = (sql.subjectSessionCount.get(touched.subjectId)?.count ?? 0) - request.maxSessionsPerSubject;
      if (excess > 0) {
        for (const row of sql.evictableOfSubject.all(touched.subjectId, keep).slice(0, excess)) {
          deleteSession(row.session_id, deleted);
        }
      }
    }
    const counts = (): { sessions: number; runs: number } => sql.counts.get() as { sessions: number; runs: number };
    // Past the store caps only sessions idle for the protection window go, oldest first.
    const protectedFrom = request.now - request.protectActiveSessionsMs;
    for (;;) {
      const { sessions, runs } = counts();
      if (sessions <= request.maxSessions && runs <= request.maxRuns) break;
      const row = sql.evictableByActivity.get(keep, protectedFrom);
      if (row === undefined) break;
      deleteSession(row.session_id, deleted);
    }
    if (touched === undefined) {
      for (const row of sql.evictableByActivity.all(keep, request.now - request.sessionIdleTtlMs)) {
        deleteSession(row.session_id, deleted);
      }
    }
    return deleted;
  });

  return {
    async enforceRetention(request) {
      return enforceRetention.immediate(request);
    },
    async checkSessionRoom(request) {
      const room = roomUnderCaps(request, sql.counts.get() as { sessions: number; runs: number });
      if (room.kind === 'room') return room;
      const evictable = sql.evictableByActivity.get('', request.now - request.protectActiveSessionsMs);
      return evictable === undefined ? room : { kind: 'room' };
    },
    async counts() {
      return sql.counts.get() as { sessions: number; runs: number };
    },
  };
}
