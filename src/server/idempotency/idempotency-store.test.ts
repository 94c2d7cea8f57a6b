import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import type { IdempotencyRequest } from './idempotency-store.ts';
import { createIdempotencyStore } from './idempotency-store.ts';

const HOUR = 3_600_000;

function requestOf(key: string, text = 'Hi'): IdempotencyRequest {
  return { scope: 'alice', method: 'POST', routeTemplate: '/runs', key, body: { text }, pathParams: {} };
}

function setup() {
  const clock = createFakeClock(0);
  let next = 0;
  const store = createIdempotencyStore({
    storage: createMemoryStorage(),
    clock,
    ids: (prefix) => `${prefix}_${(next += 1)}`,
    ttlMs: HOUR,
    lockTtlMs: 60_000,
  });
  return { clock, store };
}

describe('idempotency records over the storage port (docs/protocol.md §10)', () => {
  it('replays a completed record until its TTL, then takes the key as new', async () => {
    const { clock, store } = setup();
    const begun = await store.begin(requestOf('key-aaaaaaaaaaaaaaaa'));
    if (begun.kind !== 'started') throw new Error('expected a new record');
    await begun.complete({ status: 201, body: { runId: 'run_1' }, headers: {} });
    clock.advance(HOUR - 1);
    await store.sweep();
    expect(await store.begin(requestOf('key-aaaaaaaaaaaaaaaa'))).toEqual({
      kind: 'replay',
      response: { status: 201, body: { runId: 'run_1' }, headers: {} },
    });
    clock.advance(1);
    await store.sweep();
    expect((await store.begin(requestOf('key-aaaaaaaaaaaaaaaa'))).kind).toBe('started');
  });

  it('refuses a reused key with another body and a key in use (retry after 1 s) until its lock lapses', async () => {
    const { clock, store } = setup();
    const first = await store.begin(requestOf('key-bbbbbbbbbbbbbbbb'));
    expect(first.kind).toBe('started');
    await expect(store.begin(requestOf('key-bbbbbbbbbbbbbbbb', 'other'))).rejects.toMatchObject({
      init: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    await expect(store.begin(requestOf('key-bbbbbbbbbbbbbbbb'))).rejects.toMatchObject({
      init: { code: 'IDEMPOTENCY_KEY_IN_USE', retryAfterMs: 1000 },
    });
    clock.advance(60_000);
    const takeover = await store.begin(requestOf('key-bbbbbbbbbbbbbbbb'));
    expect(takeover.kind).toBe('started');
    if (first.kind === 'started') await first.abandon();
    await expect(store.begin(requestOf('key-bbbbbbbbbbbbbbbb'))).rejects.toMatchObject({
      init: { code: 'IDEMPOTENCY_KEY_IN_USE' },
    });
  });
});
