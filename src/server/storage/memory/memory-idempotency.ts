import type { IdempotencyCompletion, IdempotencyStorage } from '../storage-port.ts';
import type { MemoryState } from './memory-state.ts';

/** Whether the request's token still holds the record `completion` completes. */
export function holdsIdempotencyLock(state: MemoryState, completion: IdempotencyCompletion): boolean {
  const record = state.idempotency.get(completion.recordId);
  return record?.state === 'in_progress' && record.token === completion.token;
}

/** Completes the record with the response (the caller checked the lock). */
export function completeIdempotencyRecord(state: MemoryState, completion: IdempotencyCompletion): void {
  const { idempotency } = state;
  const record = idempotency.get(completion.recordId);
  if (record === undefined) return;
  idempotency.set(completion.recordId, {
    state: 'completed',
    fingerprint: record.fingerprint,
    response: completion.response,
    expiresAt: completion.expiresAt,
  });
}

/** The idempotency role of the in-memory store. */
export function createMemoryIdempotencyStorage(state: MemoryState): IdempotencyStorage {
  const { idempotency } = state;
  return {
    async beginIdempotency(request) {
      const existing = idempotency.get(request.recordId);
      if (existing !== undefined && existing.expiresAt > request.now) {
        if (existing.fingerprint !== request.fingerprint) return { kind: 'reused' };
        if (existing.state === 'completed') return { kind: 'replay', response: existing.response };
        if (existing.lockedUntil > request.now) return { kind: 'in_use' };
      }
      idempotency.set(request.recordId, {
        state: 'in_progress',
        fingerprint: request.fingerprint,
        token: request.token,
        lockedUntil: request.lockedUntil,
        expiresAt: request.expiresAt,
      });
      return { kind: 'started' };
    },
    async completeIdempotency(completion) {
      if (!holdsIdempotencyLock(state, completion)) return false;
      completeIdempotencyRecord(state, completion);
      return true;
    },
    async abandonIdempotency(recordId, token) {
      const record = idempotency.get(recordId);
      if (record?.state === 'in_progress' && record.token === token) idempotency.delete(recordId);
    },
    async deleteExpiredIdempotency(now) {
      let count = 0;
      for (const [recordId, record] of idempotency) {
        if (record.expiresAt > now) continue;
        idempotency.delete(recordId);
        count += 1;
      }
      return count;
    },
  };
}
