import type { AgentStorage } from '../storage-port.ts';
import type { PostgresConnection } from './postgres-connection.ts';

/** The run leases role of the Postgres storage (the reaper's view). */
export type PostgresLeases = Pick<AgentStorage, 'renewLease' | 'takeExpiredLease' | 'listExpiredLeases'>;

/**
 * Run leases in one table: renewals and takeovers are single conditional `UPDATE`s, so of the
 * processes racing for an expired lease exactly one row update wins, and a run that ended (its
 * lease row deleted with the terminal append) is never taken over.
 */
export function createPostgresLeases({ s, query }: PostgresConnection): PostgresLeases {
  return {
    async renewLease(runId, owner, expiresAt) {
      const result = await query(`UPDATE ${s}.leases SET expires_at = $1 WHERE run_id = $2 AND owner = $3`, [
        expiresAt,
        runId,
        owner,
      ]);
      return result.rowCount === 1;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      const result = await query(
        `UPDATE ${s}.leases l SET owner = $1, expires_at = $2 FROM ${s}.runs r
         WHERE l.run_id = $3 AND l.expires_at <= $4 AND r.run_id = l.run_id AND r.ended_at IS NULL`,
        [owner, expiresAt, runId, now],
      );
      return result.rowCount === 1;
    },
    async listExpiredLeases(now, limit) {
      const { rows } = await query<{ run_id: string; owner: string; expires_at: number }>(
        `SELECT run_id, owner, expires_at FROM ${s}.leases WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2`,
        [now, limit],
      );
      return rows.map((row) => ({ runId: row.run_id, owner: row.owner, expiresAt: row.expires_at }));
    },
  };
}
