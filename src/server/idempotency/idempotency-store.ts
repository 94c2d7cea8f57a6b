import { createHash } from 'node:crypto';
import { canonicalJson } from '../http/canonical-json.ts';
import { fail } from '../http/problem-error.ts';
import type { Clock } from '../../core/clock.ts';

/** The response a completed request stored, replayed verbatim on a retry. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The outcome of {@link IdempotencyStore.begin}. */
export type IdempotencyBegin =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'started'; complete: (response: StoredResponse) => void; abandon: () => void };

/** Options of {@link createIdempotencyStore}. */
export interface IdempotencyStoreOptions {
  clock: Pick<Clock, 'now'>;
  /** How long a completed record is kept (default 24 h). */
  ttlMs?: number;
  /** How long an `in_progress` lock holds before a retry may take it over (default 60 s). */
  lockTtlMs?: number;
  /**
   * Records kept at most (default 100 000); past it the oldest are forgotten first, and a retry
   * with a forgotten key counts as a new request.
   */
  maxRecords?: number;
}

/** The scope of one key: who, which route template, and the fingerprinted request. */
export interface IdempotencyRequest {
  scope: string;
  method: string;
  routeTemplate: string;
  key: string;
  body: unknown;
  pathParams: Record<string, string>;
}

/** Idempotency records (docs/protocol.md §10): replay, reuse and in-use detection, in memory. */
export interface IdempotencyStore {
  /**
   * Looks the key up before any business check. Replays a completed record with the same
   * fingerprint; throws `422 IDEMPOTENCY_KEY_REUSED` for a different fingerprint and `409
   * IDEMPOTENCY_KEY_IN_USE` (Retry-After 1 s) while another request holds the lock; otherwise
   * inserts an `in_progress` record and returns `complete`/`abandon` for it. Synchronous, so two
   * concurrent requests can never both start.
   */
  begin(request: IdempotencyRequest): IdempotencyBegin;
  /** Forgets expired records (also done on every `begin`). */
  sweep(): void;
  /** Number of records held (expired ones are dropped on access and by `sweep`). */
  size(): number;
}

type IdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string; lockedUntil: number; expiresAt: number }
  | { state: 'completed'; fingerprint: string; response: StoredResponse; expiresAt: number };

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,255}$/;

/**
 * Parses an `Idempotency-Key` header: an sf-string (`"…"`) or a bare token of 16–255 characters
 * from `[A-Za-z0-9_.:-]`. Throws `400 IDEMPOTENCY_KEY_REQUIRED` when absent and `400
 * IDEMPOTENCY_KEY_INVALID` for a bad form or a low-entropy key (fewer than 4 distinct characters).
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    return fail({ code: 'IDEMPOTENCY_KEY_REQUIRED', detail: 'Send an Idempotency-Key header (a UUID or ULID).' });
  }
  const raw = (Array.isArray(header) ? header.join(',') : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!KEY_PATTERN.test(key)) {
    return fail({
      code: 'IDEMPOTENCY_KEY_INVALID',
      detail: 'The key must be 16–255 characters of A–Z, a–z, 0–9, _ . : -.',
    });
  }
  if (new Set(key).size < 4) {
    return fail({ code: 'IDEMPOTENCY_KEY_INVALID', detail: 'The key has too little entropy; use a UUID or ULID.' });
  }
  return key;
}

/** Creates the in-memory {@link IdempotencyStore}. */
export function createIdempotencyStore(options: IdempotencyStoreOptions): IdempotencyStore {
  const { clock } = options;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const lockTtlMs = options.lockTtlMs ?? 60_000;
  const maxRecords = options.maxRecords ?? 100_000;
  const records = new Map<string, IdempotencyRecord>();

  // Keeps at most `maxRecords - room` records, so `begin` can make room for the one it inserts.
  const sweep = (now: number, room: number): void => {
    for (const [id, record] of records) {
      // Insertion order is expiry order (completion re-inserts), so stop at the first live one.
      if (record.expiresAt > now && records.size <= maxRecords - room) break;
      records.delete(id);
    }
  };

  return {
    begin(request) {
      const now = clock.now();
      sweep(now, 0);
      const id = JSON.stringify([request.scope, request.method, request.routeTemplate, request.key]);
      const fingerprint = createHash('sha256')
        .update(canonicalJson({ body: request.body, pathParams: request.pathParams }), 'utf8')
        .digest('base64url');
      const existing = records.get(id);
      if (existing !== undefined) {
        if (existing.fingerprint !== fingerprint) {
          return fail({
            code: 'IDEMPOTENCY_KEY_REUSED',
            detail: 'This key was first used for a different request body.',
          });
        }
        if (existing.state === 'completed') return { kind: 'replay', response: existing.response };
        if (existing.lockedUntil > now) {
          return fail({
            code: 'IDEMPOTENCY_KEY_IN_USE',
            detail: 'The first request with this key is still running.',
            retryAfterMs: 1000,
          });
        }
        // A stale lock: nothing was committed for it (create and record are atomic), so take over.
      }
      const record: IdempotencyRecord = {
        state: 'in_progress',
        fingerprint,
        lockedUntil: now + lockTtlMs,
        expiresAt: now + ttlMs,
      };
      records.delete(id);
      sweep(now, 1);
      records.set(id, record);
      return {
        kind: 'started',
        complete: (response) => {
          if (records.get(id) !== record) return;
          records.delete(id);
          records.set(id, { state: 'completed', fingerprint, response, expiresAt: clock.now() + ttlMs });
        },
        abandon: () => {
          if (records.get(id) === record) records.delete(id);
        },
      };
    },
    sweep: () => sweep(clock.now(), 0),
    size: () => records.size,
  };
}
