import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { createRateLimiter } from './rate-limiter.ts';

const START = Date.UTC(2026, 10, 29, 13, 40, 0);

/** One step of a table: wait `afterMs`, then take `rule` for `key`; `expected` is what it answers. */
interface Step {
  afterMs: number;
  key?: string;
  rule?: 'runs' | 'reads';
  expected: true | { retryAfterMs: number };
}

function play(
  perMinute: { runs: number; reads: number },
  steps: readonly Step[],
): Array<true | { retryAfterMs: number }> {
  const clock = createFakeClock(START);
  const limiter = createRateLimiter({ clock, perMinute });
  return steps.map((step) => {
    clock.advance(step.afterMs);
    const decision = limiter.take(step.key ?? 'idn_a', step.rule ?? 'runs');
    return decision.isAllowed ? true : { retryAfterMs: decision.retryAfterMs };
  });
}

const table: Array<{ name: string; perMinute: { runs: number; reads: number }; steps: Step[] }> = [
  {
    name: 'a burst of the whole number passes, the next waits one interval (60 s / 3 = 20 s)',
    perMinute: { runs: 3, reads: 600 },
    steps: [
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: { retryAfterMs: 20_000 } },
      { afterMs: 5_000, expected: { retryAfterMs: 15_000 } },
      { afterMs: 14_999, expected: { retryAfterMs: 1 } },
      { afterMs: 1, expected: true },
      { afterMs: 0, expected: { retryAfterMs: 20_000 } },
    ],
  },
  {
    name: 'a refused request is not counted: waiting the answer is always enough',
    perMinute: { runs: 1, reads: 600 },
    steps: [
      { afterMs: 0, expected: true },
      { afterMs: 10_000, expected: { retryAfterMs: 50_000 } },
      { afterMs: 10_000, expected: { retryAfterMs: 40_000 } },
      { afterMs: 40_000, expected: true },
    ],
  },
  {
    name: 'a bucket refills evenly: after 40 s of 3 per minute, two fit again',
    perMinute: { runs: 3, reads: 600 },
    steps: [
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: true },
      { afterMs: 40_000, expected: true },
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: { retryAfterMs: 20_000 } },
    ],
  },
  {
    name: 'a full bucket never holds more than the whole number, however long it rested',
    perMinute: { runs: 2, reads: 600 },
    steps: [
      { afterMs: 3_600_000, expected: true },
      { afterMs: 0, expected: true },
      { afterMs: 0, expected: { retryAfterMs: 30_000 } },
    ],
  },
  {
    name: 'keys and rules have their own buckets',
    perMinute: { runs: 1, reads: 1 },
    steps: [
      { afterMs: 0, key: 'idn_a', rule: 'runs', expected: true },
      { afterMs: 0, key: 'idn_a', rule: 'runs', expected: { retryAfterMs: 60_000 } },
      { afterMs: 0, key: 'idn_b', rule: 'runs', expected: true },
      { afterMs: 0, key: 'idn_a', rule: 'reads', expected: true },
      { afterMs: 0, key: 'idn_a', rule: 'reads', expected: { retryAfterMs: 60_000 } },
    ],
  },
  {
    name: 'an interval that is not a whole millisecond (7 per minute) stays exact: the 8th waits ⌈8571.43⌉ ms',
    perMinute: { runs: 7, reads: 600 },
    steps: [
      ...Array.from({ length: 7 }, (): Step => ({ afterMs: 0, expected: true })),
      { afterMs: 0, expected: { retryAfterMs: 8_572 } },
      { afterMs: 8_571, expected: { retryAfterMs: 1 } },
      { afterMs: 1, expected: true },
    ],
  },
  {
    name: 'Infinity turns a rule off',
    perMinute: { runs: Number.POSITIVE_INFINITY, reads: 600 },
    steps: Array.from({ length: 1_000 }, (): Step => ({ afterMs: 0, expected: true })),
  },
];

describe('createRateLimiter', () => {
  it.each(table)('$name', ({ perMinute, steps }) => {
    expect(play(perMinute, steps)).toStrictEqual(steps.map((step) => step.expected));
  });

  it('sweep forgets only the buckets that have refilled completely', () => {
    const clock = createFakeClock(START);
    const limiter = createRateLimiter({ clock, perMinute: { runs: 2, reads: 600 } });
    limiter.take('idn_a', 'runs');
    clock.advance(10_000);
    limiter.take('idn_b', 'runs');
    limiter.take('idn_b', 'runs');
    expect(limiter.size()).toBe(2);
    clock.advance(19_999);
    limiter.sweep();
    expect(limiter.size()).toBe(2);
    clock.advance(1);
    limiter.sweep();
    expect(limiter.size()).toBe(1);
    clock.advance(40_000);
    limiter.sweep();
    expect(limiter.size()).toBe(0);
  });

  it('refuses a rule that is not a whole number of at least 1 per minute', () => {
    const clock = createFakeClock(START);
    expect(() => createRateLimiter({ clock, perMinute: { runs: 0 } })).toThrow(RangeError);
    expect(() => createRateLimiter({ clock, perMinute: { runs: 2.5 } })).toThrow(RangeError);
    expect(() => createRateLimiter({ clock, perMinute: { runs: Number.NaN } })).toThrow(RangeError);
  });
});
