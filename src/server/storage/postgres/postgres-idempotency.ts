import type { AgentStorage, IdempotencyCompletion } from '../storage-port.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';

/** The idempotency role of the Postgres storage. */
export type PostgresIdempotency = Pick<
  AgentStorage,
  'beginIdempotency' | 'completeIdempotency' | 'abandonIdempotency' | 'deleteExpiredIdempotency'
>;

interface IdempotencyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  token: string | null;
  locked_until: number | null;
  response_json: string | null;
  expires_at: number;
}

/**
 * Inside a transaction: whether `completion`'s token still holds its record, locking the record
 * (`FOR UPDATE`) so a takeover waits for this transaction.
 */
export async function holdsIdempotencyLock(
  sql: RunSql,
  s: string,
  completion: IdempotencyCompletion,
): Promise<boolean> {
  const { rows } = await sql<{ state: string; token: string | null }>(
    `SELECT state, token FROM ${s}.idempotency WHERE record_id = $1 FOR UPDATE`,
    [completion.recordId],
  );
  return rows[0]?.state === 'in_progress' && rows[0].token === completion.token;
}

/** Inside a transaction that holds the record: stores the response the request answered. */
export async function completeIdempotencyRecord(
  sql: RunSql,
  s: string,
  completion: IdempotencyCompletion,
): Promise<void> {
  await sql(
    `UPDATE ${s}.idempotency SET state = 'completed', token = NULL, locked_until = NULL, response_json = $1,
       expires_at = $2 WHERE record_id = $3`,
    [JSON.stringify(completion.response), completion.expiresAt, completion.recordId],
  );
}

/**
 * Idempotency records in one table keyed by record id: a begin inserts when absent
 * (`ON CONFLICT DO NOTHING`) or decides on the row locked `FOR UPDATE`, so of concurrent begins
 * in any number of processes exactly one gets `started`.
 */
export function createPostgresIdempotency({ s, transaction, query }: PostgresConnection): PostgresIdempotency {
  return {
    beginIdempotency: (request) =>
      transaction(async (sql) => {
        const values = [request.recordId, request.fingerprint, request.token, request.lockedUntil, request.expiresAt];
        for (;;) {
          const inserted = await sql(
            `INSERT INTO ${s}.idempotency (record_id, fingerprint, state, token, locked_until, expires_at)
             VALUES ($1, $2, 'in_progress', $3, $4, $5) ON CONFLICT (record_id) DO NOTHING`,
            values,
          );
          if (inserted.rowCount === 1) return { kind: 'started' } as const;
          const { rows } = await sql<IdempotencyRow>(`SELECT * FROM ${s}.idempotency WHERE record_id = $1 FOR UPDATE`, [
            request.recordId,
          ]);
          const existing = rows[0];
          // Deleted between the insert and the lock: insert again.
          if (existing === undefined) continue;
          if (existing.expires_at > request.now) {
            if (existing.fingerprint !== request.fingerprint) return { kind: 'reused' } as const;
            if (existing.state === 'completed') {
              return { kind: 'replay', response: JSON.parse(existing.response_json ?? 'null') } as const;
            }
            if ((existing.locked_until ?? 0) > request.now) return { kind: 'in_use' } as const;
          }
          await sql(
            `UPDATE ${s}.idempotency SET fingerprint = $2, state = 'in_progress', token = $3, locked_until = $4,
               response_json = NULL, expires_at = $5 WHERE record_id = $1`,
            values,
          );
          return { kind: 'started' } as const;
        }
      }),
    completeIdempotency: (completion) =>
      transaction(async (sql) => {
        if (!(await holdsIdempotencyLock(sql, s, completion))) return false;
        await completeIdempotencyRecord(sql, s, completion);
        return true;
      }),
    async abandonIdempotency(recordId, token) {
      await query(`DELETE FROM ${s}.idempotency WHERE record_id = $1 AND state = 'in_progress' AND token = $2`, [
        recordId,
        token,
      ]);
    },
    async deleteExpiredIdempotency(now) {
      return (await query(`DELETE FROM ${s}.idempotency WHERE expires_at <= $1`, [now])).rowCount;
    },
  };
}
