import type { ExecutorLeaseStore, StoredExecutorLease } from '../storage-port.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';

interface ExecutorRow {
  subject_id: string;
  executor_id: string;
  tools_json: string;
  expires_at: number;
}

const toLease = (row: ExecutorRow): StoredExecutorLease => ({
  subjectId: row.subject_id,
  executorId: row.executor_id,
  tools: JSON.parse(row.tools_json) as string[],
  expiresAt: row.expires_at,
});

/**
 * The browser-tool executor leases shared by every process (`AgentStorage.executorLeases`), with
 * the same caps as on Redis: connects take a transaction-level advisory lock of the schema, so the
 * `maxExecutors` count and the eviction of a crowded subject's oldest lease are decided one at a time.
 */
export function createPostgresExecutorLeases({
  s,
  schema,
  query,
  transaction,
}: PostgresConnection): ExecutorLeaseStore {
  const forget = (sql: RunSql, subjectId: string, executorId: string) =>
    sql(`DELETE FROM ${s}.executor_leases WHERE subject_id = $1 AND executor_id = $2`, [subjectId, executorId]);
  return {
    connect: (lease, caps) =>
      transaction(async (sql) => {
        const { subjectId, executorId, tools } = lease;
        await sql('SELECT pg_advisory_xact_lock(hashtext($1))', [`agent-chat-executors:${schema}`]);
        const { rows } = await sql<{ is_new: boolean; live: number; held: number }>(
          `SELECT NOT EXISTS (SELECT 1 FROM ${s}.executor_leases WHERE subject_id = $1 AND executor_id = $2) AS is_new,
             (SELECT COUNT(*) FROM ${s}.executor_leases WHERE expires_at > $3) AS live,
             (SELECT COUNT(*) FROM ${s}.executor_leases WHERE subject_id = $1) AS held`,
          [subjectId, executorId, caps.now],
        );
        const { is_new: isNew, live, held } = rows[0] as { is_new: boolean; live: number; held: number };
        if (isNew && live >= caps.maxExecutors && held < caps.maxPerSubject) {
          // A newcomer takes the oldest live lease of a subject holding more than one.
          if (held > 0) return null;
          const { rows: crowded } = await sql<{ subject_id: string; executor_id: string }>(
            `SELECT l.subject_id, l.executor_id FROM ${s}.executor_leases l WHERE l.expires_at > $1
               AND (SELECT COUNT(*) FROM ${s}.executor_leases o WHERE o.subject_id = l.subject_id) > 1
             ORDER BY l.expires_at LIMIT 1`,
            [caps.now],
          );
          const victim = crowded[0];
          if (victim === undefined) return null;
          await forget(sql, victim.subject_id, victim.executor_id);
        }
        await sql(
          `INSERT INTO ${s}.executor_leases (subject_id, executor_id, tools_json, expires_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (subject_id, executor_id) DO UPDATE SET tools_json = excluded.tools_json,
             expires_at = excluded.expires_at, refreshed = nextval(pg_get_serial_sequence('${s}.executor_leases', 'refreshed'))`,
          [subjectId, executorId, JSON.stringify(tools), lease.expiresAt],
        );
        await sql(
          `DELETE FROM ${s}.executor_leases WHERE (subject_id, executor_id) IN (
             SELECT subject_id, executor_id FROM ${s}.executor_leases WHERE subject_id = $1
             ORDER BY refreshed LIMIT GREATEST(0, (SELECT COUNT(*) FROM ${s}.executor_leases WHERE subject_id = $1) - $2))`,
          [subjectId, caps.maxPerSubject],
        );
        return { subjectId, executorId, tools: [...tools], expiresAt: lease.expiresAt };
      }),
    async heartbeat(subjectId, executorId, now, expiresAt) {
      const { rows } = await query<ExecutorRow>(
        `UPDATE ${s}.executor_leases SET expires_at = $1,
           refreshed = nextval(pg_get_serial_sequence('${s}.executor_leases', 'refreshed'))
         WHERE subject_id = $2 AND executor_id = $3 AND expires_at > $4 RETURNING *`,
        [expiresAt, subjectId, executorId, now],
      );
      return rows[0] === undefined ? null : toLease(rows[0]);
    },
    async disconnect(subjectId, executorId) {
      return (await forget(query, subjectId, executorId)).rowCount === 1;
    },
    async find(subjectId, executorId, now) {
      const { rows } = await query<ExecutorRow>(
        `SELECT * FROM ${s}.executor_leases WHERE subject_id = $1 AND executor_id = $2 AND expires_at > $3`,
        [subjectId, executorId, now],
      );
      return rows[0] === undefined ? null : toLease(rows[0]);
    },
    async takeExpired(now, limit) {
      const { rows } = await query<ExecutorRow>(
        `DELETE FROM ${s}.executor_leases WHERE (subject_id, executor_id) IN (
           SELECT subject_id, executor_id FROM ${s}.executor_leases WHERE expires_at <= $1
           ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING *`,
        [now, limit],
      );
      return rows.map(toLease).sort((a, b) => a.expiresAt - b.expiresAt);
    },
    async count() {
      const { rows } = await query<{ count: number }>(`SELECT COUNT(*) AS count FROM ${s}.executor_leases`);
      return rows[0]?.count ?? 0;
    },
  };
}
