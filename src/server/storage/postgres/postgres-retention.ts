import { roomUnderCaps } from '../storage-port.ts';
import type { AgentStorage } from '../storage-port.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';

/** The retention and caps role of the Postgres storage. */
export type PostgresRetention = Pick<AgentStorage, 'enforceRetention' | 'checkSessionRoom' | 'counts'>;

interface Deleted {
  sessionIds: string[];
  runIds: string[];
}

/**
 * Retention as on the other stores (docs/server.md, "Retention"), in one transaction per call.
 * A session is deleted only while it has no active run, re-checked under its row lock, so a
 * create committing in another process at the same moment keeps its session.
 */
export function createPostgresRetention({ s, query, transaction }: PostgresConnection): PostgresRetention {
  const counts = async (sql: RunSql): Promise<{ sessions: number; runs: number }> => {
    const { rows } = await sql<{ sessions: number; runs: number }>(
      `SELECT (SELECT COUNT(*) FROM ${s}.sessions) AS sessions, (SELECT COUNT(*) FROM ${s}.runs) AS runs`,
    );
    return rows[0] ?? { sessions: 0, runs: 0 };
  };
  // Sessions that may go, idle since a cutoff, oldest first: the idle TTL's and, one at a time, the store caps'.
  const evictableSince = async (sql: RunSql, keep: string, cutoff: number, limit: number | null): Promise<string[]> =>
    (
      await sql<{ session_id: string }>(
        `SELECT session_id FROM ${s}.sessions WHERE active_run_id IS NULL AND session_id <> $1 AND updated_at <= $2
         ORDER BY updated_at, position LIMIT $3`,
        [keep, cutoff, limit],
      )
    ).rows.map((row) => row.session_id);
  const deleteIdleSession = async (sql: RunSql, sessionId: string, deleted: Deleted): Promise<void> => {
    const locked = await sql(`SELECT 1 FROM ${s}.sessions WHERE session_id = $1 AND active_run_id IS NULL FOR UPDATE`, [
      sessionId,
    ]);
    if (locked.rowCount === 0) return;
    const { rows } = await sql<{ run_id: string }>(
      `SELECT run_id FROM ${s}.runs WHERE session_id = $1 ORDER BY position`,
      [sessionId],
    );
    await sql(`DELETE FROM ${s}.sessions WHERE session_id = $1`, [sessionId]);
    deleted.runIds.push(...rows.map((row) => row.run_id));
    deleted.sessionIds.push(sessionId);
  };

  return {
    enforceRetention: (request) =>
      transaction(async (sql) => {
        const { touched } = request;
        const deleted: Deleted = { sessionIds: [], runIds: [] };
        const keep = touched?.sessionId ?? '';
        if (touched !== undefined) {
          const { rows } = await sql<{ run_id: string }>(
            `SELECT run_id FROM ${s}.runs WHERE session_id = $1 ORDER BY position`,
            [touched.sessionId],
          );
          const own = rows.map((row) => row.run_id);
          const dropped = own.slice(0, Math.max(0, own.length - Math.max(1, request.maxRunsPerSession)));
          if (dropped.length > 0) {
            await sql(`DELETE FROM ${s}.runs WHERE run_id = ANY($1)`, [dropped]);
            deleted.runIds.push(...dropped);
          }
          const { rows: subjectRows } = await sql<{ count: number }>(
            `SELECT COUNT(*) AS count FROM ${s}.sessions WHERE subject_id = $1`,
            [touched.subjectId],
          );
          const excess = (subjectRows[0]?.count ?? 0) - request.maxSessionsPerSubject;
          if (excess > 0) {
            const { rows: evictable } = await sql<{ session_id: string }>(
              `SELECT session_id FROM ${s}.sessions WHERE subject_id = $1 AND active_run_id IS NULL AND session_id <> $2
               ORDER BY updated_at, position LIMIT $3`,
              [touched.subjectId, keep, excess],
            );
            for (const row of evictable) await deleteIdleSession(sql, row.session_id, deleted);
          }
        }
        // Past the store caps only sessions idle for the protection window go, oldest first.
        const protectedFrom = request.now - request.protectActiveSessionsMs;
        for (;;) {
          const { sessions, runs } = await counts(sql);
          if (sessions <= request.maxSessions && runs <= request.maxRuns) break;
          const [oldest] = await evictableSince(sql, keep, protectedFrom, 1);
          if (oldest === undefined) break;
          await deleteIdleSession(sql, oldest, deleted);
        }
        if (touched === undefined) {
          for (const sessionId of await evictableSince(sql, keep, request.now - request.sessionIdleTtlMs, null)) {
            await deleteIdleSession(sql, sessionId, deleted);
          }
        }
        return deleted;
      }),
    async checkSessionRoom(request) {
      const room = roomUnderCaps(request, await counts(query));
      if (room.kind === 'room') return room;
      const evictable = await evictableSince(query, '', request.now - request.protectActiveSessionsMs, 1);
      return evictable.length === 0 ? room : { kind: 'room' };
    },
    counts: () => counts(query),
  };
}
