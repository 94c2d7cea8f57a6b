import type { RunLeaseStorage } from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';

/** The run leases role of the SQLite store: each call one statement. */
export function createSqliteRunLeaseStorage({ sql }: SqliteContext): RunLeaseStorage {
  return {
    async renewLease(runId, owner, expiresAt) {
      return sql.renewLease.run(expiresAt, runId, owner).changes === 1;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      return sql.takeExpiredLease.run(owner, expiresAt, runId, now, runId).changes === 1;
    },
    async listExpiredLeases(now, limit) {
      return sql.expiredLeases
        .all(now, limit)
        .map((row) => ({ runId: row.run_id, owner: row.owner, expiresAt: row.expires_at }));
    },
  };
}
