import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { IdempotencyRequest } from './idempotency-store.ts';
import { createIdempotencyStore } from './idempotency-store.ts';

const HOUR = 3_600_000;

function requestOf(key: string): IdempotencyRequest {
  return { scope: 'alice', method: 'POST', routeTemplate: '/runs', key, body: { text: 'Hi' }, pathParams: {} };
}

describe('idempotency store bounds (docs/server.md, "Memory")', () => {
  it('forgets completed records after the TTL, on sweep as on begin', () => {
    const clock = createFakeClock(0);
    const store = createIdempotencyStore({ clock, ttlMs: HOUR });
    const begun = store.begin(requestOf('key-aaaaaaaaaaaaaaaa'));
    if (begun.kind !== 'started') throw new Error('expected a new record');
    begun.complete({ status: 201, body: { runId: 'run_1' }, headers: {} });
    clock.advance(HOUR - 1);
    store.sweep();
    expect(store.size()).toBe(1);
    expect(store.begin(requestOf('key-aaaaaaaaaaaaaaaa')).kind).toBe('replay');
    clock.advance(1);
    store.sweep();
    expect(store.size()).toBe(0);
    expect(store.begin(requestOf('key-aaaaaaaaaaaaaaaa')).kind).toBe('started');
  });

  it('keeps at most maxRecords, forgetting the oldest first', () => {
    const clock = createFakeClock(0);
    const store = createIdempotencyStore({ clock, maxRecords: 3 });
    const keys = ['key-1aaaaaaaaaaaaaaa', 'key-2aaaaaaaaaaaaaaa', 'key-3aaaaaaaaaaaaaaa', 'key-4aaaaaaaaaaaaaaa'];
    for (const [index, key] of keys.entries()) {
      clock.advance(1_000);
      const begun = store.begin(requestOf(key));
      if (begun.kind !== 'started') throw new Error('expected a new record');
      begun.complete({ status: 201, body: { runId: `run_${index}` }, headers: {} });
    }
    expect(store.size()).toBe(3);
    expect(keys.slice(1).map((key) => store.begin(requestOf(key)).kind)).toEqual(['replay', 'replay', 'replay']);
    expect(store.begin(requestOf(keys[0] as string)).kind).toBe('started');
    expect(store.size()).toBe(3);
  });
});
