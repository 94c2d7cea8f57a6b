import { describe, expect, it } from 'vitest';
import { createByteBudget } from './byte-budget.ts';

const HOUR_MS = 60 * 60 * 1000;

function setup(bytesPerHour = 3_600) {
  let now = 1_000_000;
  const budget = createByteBudget({ bytesPerHour, clock: { now: () => now } });
  return { budget, advance: (ms: number) => (now += ms) };
}

describe('createByteBudget', () => {
  it('takes a whole hour at once, then refuses with the wait until the bytes fit', () => {
    const { budget, advance } = setup();
    expect(budget.take('10.0.0.1', 3_000)).toEqual({ isAllowed: true });
    // 600 bytes left; 1,000 more need 400 more, at one byte a second.
    expect(budget.take('10.0.0.1', 1_000)).toEqual({ isAllowed: false, retryAfterMs: 400_000 });
    expect(budget.take('10.0.0.2', 3_600)).toEqual({ isAllowed: true });
    advance(399_999);
    expect(budget.take('10.0.0.1', 1_000)).toEqual({ isAllowed: false, retryAfterMs: 1 });
    advance(1);
    expect(budget.take('10.0.0.1', 1_000)).toEqual({ isAllowed: true });
  });

  it('gives back bytes an upload never used, and forgets keys whose hour refilled', () => {
    const { budget, advance } = setup();
    expect(budget.take('idn_a', 3_600)).toEqual({ isAllowed: true });
    budget.refund('idn_a', 1_000);
    expect(budget.take('idn_a', 1_000)).toEqual({ isAllowed: true });
    expect(budget.take('idn_a', 1)).toMatchObject({ isAllowed: false });
    advance(HOUR_MS - 1);
    budget.sweep();
    expect(budget.size()).toBe(1);
    advance(1);
    budget.sweep();
    expect(budget.size()).toBe(0);
  });

  it('is off at Infinity and refuses a budget that is not positive', () => {
    const { budget } = setup(Number.POSITIVE_INFINITY);
    expect(budget.take('anyone', Number.MAX_SAFE_INTEGER)).toEqual({ isAllowed: true });
    expect(() => createByteBudget({ bytesPerHour: 0, clock: { now: () => 0 } })).toThrow(RangeError);
  });
});
