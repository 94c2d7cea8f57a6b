/** The response a completed request stored, replayed verbatim on a retry. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Thrown by `appendEvents` when the idempotency record to complete is no longer held by the
 * request's token (its lock expired and another request took it over): nothing was appended, so
 * the other request's effect stays the only one.
 */
export class IdempotencyLockLostError extends Error {
  constructor(readonly recordId: string) {
    super(`The idempotency record ${recordId} was taken over by another request.`);
    this.name = 'IdempotencyLockLostError';
  }
}

/** Completes an idempotency record in the same transaction as the effect it answers for. */
export interface IdempotencyCompletion {
  recordId: string;
  /** The subject the record belongs to (its scope): a store may keep the record with the subject's data. */
  subjectId: string;
  /** The token `beginIdempotency` was given; a record taken over by another request refuses it. */
  token: string;
  response: StoredResponse;
  expiresAt: number;
}

/** What {@link IdempotencyStorage.beginIdempotency} decided for a key. */
export type IdempotencyBeginOutcome =
  { kind: 'replay'; response: StoredResponse } | { kind: 'reused' } | { kind: 'in_use' } | { kind: 'started' };

/**
 * The idempotency records of requests (docs/protocol.md §10): one request per key and
 * subject takes the record, and its response is replayed to retries. A record a run or an append
 * commits goes with that write (`IdempotencyCompletion`).
 */
export interface IdempotencyStorage {
  /**
   * Looks an idempotency key up and, when there is no live record, inserts an `in_progress` one
   * holding `token` until `lockedUntil` (an expired lock or record is taken over). Concurrent
   * calls for one record id: exactly one gets `started`.
   */
  beginIdempotency(request: {
    recordId: string;
    /** The subject the record belongs to (its scope): a store may keep the record with the subject's data. */
    subjectId: string;
    fingerprint: string;
    token: string;
    now: number;
    lockedUntil: number;
    expiresAt: number;
  }): Promise<IdempotencyBeginOutcome>;
  /** Stores the response of a request that committed nothing else; false when the lock was lost. */
  completeIdempotency(completion: IdempotencyCompletion): Promise<boolean>;
  /** Removes the `in_progress` record if `token` still holds it (the request failed before committing). */
  abandonIdempotency(recordId: string, token: string, subjectId: string): Promise<void>;
  /** Deletes idempotency records that expired by `now`; returns how many. */
  deleteExpiredIdempotency(now: number): Promise<number>;
}
