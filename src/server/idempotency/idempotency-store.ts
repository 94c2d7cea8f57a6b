import { createHash } from 'node:crypto';
import { canonicalJson } from '../json/canonical-json.ts';
import { refuse } from '../domain-error.ts';
import type { Clock } from '../../core/clock.ts';
import type { AgentStorage, IdempotencyCompletion, StoredResponse } from '../storage/storage-port.ts';

/** The outcome of {@link IdempotencyStore.begin}. */
export type IdempotencyBegin =
  | { kind: 'replay'; response: StoredResponse }
  | {
      kind: 'started';
      /** What to commit together with the request's effect (a create, an input echo). */
      completion: (response: StoredResponse) => IdempotencyCompletion;
      /** Stores the response on its own (a no-op when the effect's commit already did). */
      complete: (response: StoredResponse) => Promise<void>;
      /** Removes the record: the request failed before committing anything. */
      abandon: () => Promise<void>;
    };

/** Options of {@link createIdempotencyStore}. */
export interface IdempotencyStoreOptions {
  storage: AgentStorage;
  clock: Pick<Clock, 'now'>;
  /** Mints the lock tokens. */
  ids: (prefix: string) => string;
  /** How long a completed record is kept (default 24 h). */
  ttlMs?: number;
  /** How long an `in_progress` lock holds before a retry may take it over (default 60 s). */
  lockTtlMs?: number;
}

/** The scope of one key: who, which route template, and the fingerprinted request. */
export interface IdempotencyRequest {
  /** The subject whose key it is (its id): the storage keeps the record with the subject's data. */
  scope: string;
  method: string;
  routeTemplate: string;
  key: string;
  body: unknown;
  pathParams: Record<string, string>;
}

/** Idempotency records (docs/protocol.md §10) kept in the storage port: replay, reuse and in-use detection. */
export interface IdempotencyStore {
  /**
   * Looks the key up before any business check. Replays a completed record with the same
   * fingerprint; throws `422 IDEMPOTENCY_KEY_REUSED` for a different fingerprint and `409
   * IDEMPOTENCY_KEY_IN_USE` (Retry-After 1 s) while another request holds the lock; otherwise
   * the store inserted an `in_progress` record (only one of concurrent requests gets here).
   */
  begin(request: IdempotencyRequest): Promise<IdempotencyBegin>;
  /** Forgets expired records. */
  sweep(): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,255}$/;

/**
 * Parses an `Idempotency-Key` header: an sf-string (`"…"`) or a bare token of 16–255 characters
 * from `[A-Za-z0-9_.:-]`. Throws `400 IDEMPOTENCY_KEY_REQUIRED` when absent and `400
 * IDEMPOTENCY_KEY_INVALID` for a bad form or a low-entropy key (fewer than 4 distinct characters).
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    return refuse({ code: 'IDEMPOTENCY_KEY_REQUIRED', detail: 'Send an Idempotency-Key header (a UUID or ULID).' });
  }
  const raw = (Array.isArray(header) ? header.join(',') : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!KEY_PATTERN.test(key)) {
    return refuse({
      code: 'IDEMPOTENCY_KEY_INVALID',
      detail: 'The key must be 16–255 characters of A–Z, a–z, 0–9, _ . : -.',
    });
  }
  if (new Set(key).size < 4) {
    return refuse({ code: 'IDEMPOTENCY_KEY_INVALID', detail: 'The key has too little entropy; use a UUID or ULID.' });
  }
  return key;
}

/** Creates the {@link IdempotencyStore} over `storage`. */
export function createIdempotencyStore(options: IdempotencyStoreOptions): IdempotencyStore {
  const { storage, clock, ids } = options;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const lockTtlMs = options.lockTtlMs ?? 60_000;
  return {
    async begin(request) {
      const now = clock.now();
      const recordId = createHash('sha256')
        .update(JSON.stringify([request.scope, request.method, request.routeTemplate, request.key]), 'utf8')
        .digest('base64url');
      const fingerprint = createHash('sha256')
        .update(canonicalJson({ body: request.body, pathParams: request.pathParams }), 'utf8')
        .digest('base64url');
      const token = ids('idk');
      const outcome = await storage.beginIdempotency({
        recordId,
        subjectId: request.scope,
        fingerprint,
        token,
        now,
        lockedUntil: now + lockTtlMs,
        expiresAt: now + ttlMs,
      });
      switch (outcome.kind) {
        case 'replay':
          return outcome;
        case 'reused':
          return refuse({
            code: 'IDEMPOTENCY_KEY_REUSED',
            detail: 'This key was first used for a different request body.',
          });
        case 'in_use':
          return failInUse();
        case 'started':
          break;
      }
      const completion = (response: StoredResponse): IdempotencyCompletion => ({
        recordId,
        subjectId: request.scope,
        token,
        response,
        expiresAt: clock.now() + ttlMs,
      });
      return {
        kind: 'started',
        completion,
        complete: async (response) => {
          await storage.completeIdempotency(completion(response));
        },
        abandon: () => storage.abandonIdempotency(recordId, token, request.scope),
      };
    },
    async sweep() {
      await storage.deleteExpiredIdempotency(clock.now());
    },
  };
}

/** Throws `409 IDEMPOTENCY_KEY_IN_USE` with `Retry-After: 1`: the first request with the key is still running. */
export function failInUse(): never {
  return refuse({
    code: 'IDEMPOTENCY_KEY_IN_USE',
    detail: 'The first request with this key is still running.',
    retryAfterMs: 1000,
  });
}
