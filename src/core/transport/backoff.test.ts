import { describe, expect, it } from 'vitest';
import { computeBackoffDelay } from './backoff.ts';
import { sleep } from '../clock.ts';
import { createFakeClock, settleWithFakeClock } from '../../../test/support/fake-clock.ts';

describe('computeBackoffDelay', () => {
  it('draws full jitter under a doubling ceiling capped at 30 s', () => {
    const almostOne = () => 0.999999;
    expect(
      [0, 1, 2, 3, 4, 5, 6, 7, 10].map((attempt) => computeBackoffDelay(attempt, { random: almostOne })),
    ).toStrictEqual([499, 999, 1999, 3999, 7999, 15999, 29999, 29999, 29999]);
    expect(computeBackoffDelay(3, { random: () => 0.5 })).toBe(2000);
    expect(computeBackoffDelay(3, { random: () => 0 })).toBe(0);
  });

  it('honours custom base and cap', () => {
    expect(
      [0, 1, 2, 3].map((attempt) => computeBackoffDelay(attempt, { baseMs: 100, capMs: 300, random: () => 0.5 })),
    ).toStrictEqual([50, 100, 150, 150]);
  });

  it('treats a negative attempt as the first retry', () => {
    expect(computeBackoffDelay(-2, { random: () => 0.5 })).toBe(250);
  });
});

describe('sleep', () => {
  it('resolves after the delay on the given clock', async () => {
    const clock = createFakeClock(1000);
    await settleWithFakeClock(sleep(750, { clock }), clock);
    expect(clock.now()).toBe(1750);
    expect(clock.delays).toStrictEqual([750]);
  });

  it('rejects with the signal reason and clears its timer when aborted', async () => {
    const clock = createFakeClock();
    const controller = new AbortController();
    const reason = new Error('stop');
    const sleeping = sleep(5000, { clock, signal: controller.signal });
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    expect(clock.pendingCount()).toBe(0);
    expect(clock.now()).toBe(0);
  });

  it('rejects at once when the signal is already aborted, without a timer', async () => {
    const clock = createFakeClock();
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(sleep(10, { clock, signal: controller.signal })).rejects.toThrow('already');
    expect(clock.delays).toStrictEqual([]);
  });
});
