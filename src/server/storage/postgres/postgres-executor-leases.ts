import type { ExecutorLeaseStore, StoredExecutorLease } from '../storage-port.ts';
import type { PostgresConnection } from './postgres-connection.ts';

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
 * the same caps as on Redis: a connect is one call of the schema's `connect_executor` function
 * (postgres-migrations.ts), which takes a transaction-level advisory lock, so the `maxExecutors`
 * count and the eviction of a crowded subject's oldest lease are decided one at a time.
 */
export function createPostgresExecutorLeases({ s, query }: PostgresConnection): ExecutorLeaseStore {
  return {
    async connect(lease, caps) {
      const { subjectId, executorId, tools } = lease;
      const { rows } = await query<{ kept: boolean }>(
        `SELECT ${s}.connect_executor($1, $2, $3, $4, $5, $6, $7) AS kept`,
        [
          subjectId,
          executorId,
          JSON.stringify(tools),
          caps.now,
          lease.expiresAt,
          caps.maxPerSubject,
          caps.maxExecutors,
        ],
      );
      return rows[0]?.kept === true ? { subjectId, executorId, tools: [...tools], expiresAt: lease.expiresAt } : null;
    },
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
      const result = await query(`DELETE FROM ${s}.executor_leases WHERE subject_id = $1 AND executor_id = $2`, [
        subjectId,
        executorId,
      ]);
      return result.rowCount === 1;
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
      const { rows } = await query<{ n: number }>(`SELECT n FROM ${s}.executor_lease_total`);
      return rows[0]?.n ?? 0;
    },
  };
}
