import type { IdempotencyCompletion, IdempotencyStorage } from '../storage-port.ts';
import type { SqliteContext, SqliteStatements } from './sqlite-context.ts';

/** Whether the request's token still holds the record `completion` completes (inside the caller's transaction). */
export function holdsIdempotencyLock(sql: SqliteStatements, completion: IdempotencyCompletion): boolean {
  const row = sql.idempotencyLock.get(completion.recordId);
  return row?.state === 'in_progress' && row.token === completion.token;
}

/** Completes the record with the response (the caller checked the lock in the same transaction). */
export function completeIdempotencyRecord(sql: SqliteStatements, completion: IdempotencyCompletion): void {
  sql.completeIdempotency.run(JSON.stringify(completion.response), completion.expiresAt, completion.recordId);
}

/** The idempotency role of the SQLite store: each call one immediate transaction. */
export function createSqliteIdempotencyStorage({ db, sql }: SqliteContext): IdempotencyStorage {
  const beginIdempotency = db.transaction((request: Parameters<IdempotencyStorage['beginIdempotency']>[0]) => {
    const existing = sql.idempotencyRecord.get(request.recordId);
    if (existing !== undefined && existing.expires_at > request.now) {
      if (existing.fingerprint !== request.fingerprint) return { kind: 'reused' } as const;
      if (existing.state === 'completed') {
        return { kind: 'replay', response: JSON.parse(existing.response_json ?? 'null') } as const;
      }
      if ((existing.locked_until ?? 0) > request.now) return { kind: 'in_use' } as const;
    }
    sql.upsertIdempotency.run(
      request.recordId,
      request.fingerprint,
      request.token,
      request.lockedUntil,
      request.expiresAt,
    );
    return { kind: 'started' } as const;
  });

  return {
    async beginIdempotency(request) {
      return beginIdempotency.immediate(request);
    },
    async completeIdempotency(completion) {
      return db
        .transaction(() => {
          if (!holdsIdempotencyLock(sql, completion)) return false;
          completeIdempotencyRecord(sql, completion);
          return true;
        })
        .immediate();
    },
    async abandonIdempotency(recordId, token) {
      sql.abandonIdempotency.run(recordId, token);
    },
    async deleteExpiredIdempotency(now) {
      return sql.deleteExpiredIdempotency.run(now).changes;
    },
  };
}
