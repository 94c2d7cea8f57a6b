import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Clock, Sleep } from '../../src/core/clock.ts';

/**
 * The one fake {@link Clock} of the test suites: time moves only when a test advances it (or when
 * code sleeps through {@link FakeClock.sleep}), timers fire in time order, and every requested
 * delay is recorded.
 */
export interface FakeClock extends Clock {
  /** Every delay passed to `setTimeout`, in call order. */
  readonly delays: number[];
  /** How many timers are scheduled and not yet fired or cleared. */
  pendingCount(): number;
  /** Moves time to the earliest timer and fires it; false when none is pending. */
  advanceToNextTimer(): boolean;
  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void;
  /**
   * A {@link Sleep} that advances time itself: it yields once to the event loop (so test code can
   * act between steps), then moves time forward by `ms`. A scripted model with 40 ms deltas and a
   * 60 s timeout then runs in microseconds while timers still fire in the right order.
   */
  sleep: Sleep;
}

/** Creates a {@link FakeClock} starting at `startMs` (epoch ms). */
export function createFakeClock(startMs = 0): FakeClock {
  let nowMs = startMs;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const delays: number[] = [];
  const earliestDue = (limit: number): [number, { at: number; callback: () => void }] | undefined => {
    let earliest: [number, { at: number; callback: () => void }] | undefined;
    for (const entry of timers) {
      if (entry[1].at <= limit && (earliest === undefined || entry[1].at < earliest[1].at)) earliest = entry;
    }
    return earliest;
  };
  const fire = ([handle, timer]: [number, { at: number; callback: () => void }]): void => {
    timers.delete(handle);
    nowMs = Math.max(nowMs, timer.at);
    timer.callback();
  };
  const advance = (ms: number): void => {
    const target = nowMs + Math.max(0, ms);
    for (let due = earliestDue(target); due !== undefined; due = earliestDue(target)) fire(due);
    nowMs = target;
  };
  return {
    delays,
    now: () => nowMs,
    setTimeout(callback, ms) {
      delays.push(ms);
      const handle = nextHandle++;
      timers.set(handle, { at: nowMs + Math.max(0, ms), callback });
      return handle;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pendingCount: () => timers.size,
    advanceToNextTimer() {
      const due = earliestDue(Number.POSITIVE_INFINITY);
      if (due === undefined) return false;
      fire(due);
      return true;
    },
    advance,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      await yieldToEventLoop();
      signal?.throwIfAborted();
      advance(ms);
      signal?.throwIfAborted();
    },
  };
}

/**
 * Awaits `promise`, firing the fake clock's timers only when nothing else can progress, so a
 * timeout fires only when the work really hangs and backoff sleeps take no real time.
 */
export async function settleWithFakeClock<T>(promise: Promise<T>, clock: FakeClock): Promise<T> {
  let isSettled = false;
  const observed = promise.then(
    (value) => {
      isSettled = true;
      return value;
    },
    (error: unknown) => {
      isSettled = true;
      throw error;
    },
  );
  observed.catch(() => undefined);
  let idleTurns = 0;
  while (!isSettled) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (isSettled) break;
    idleTurns += 1;
    // Give real I/O (Response.text() reads a stream) a few turns before declaring the work idle.
    if (idleTurns < 5) continue;
    if (clock.advanceToNextTimer()) idleTurns = 0;
    else if (idleTurns > 500) throw new Error('settleWithFakeClock: the promise is stuck with no timer pending');
  }
  return observed;
}
