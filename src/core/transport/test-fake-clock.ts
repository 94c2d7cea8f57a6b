import type { TransportClock } from './clock.ts';

/** A manual clock for tests: timers fire only when advanced, and every requested delay is recorded. */
export interface FakeClock extends TransportClock {
  /** Every delay passed to `setTimeout`, in call order. */
  readonly delays: number[];
  /** How many timers are scheduled and not yet fired or cleared. */
  pendingCount(): number;
  /** Moves time to the earliest timer and fires it; false when none is pending. */
  advanceToNextTimer(): boolean;
}

/** Creates a {@link FakeClock} starting at `startMs`. */
export function createFakeClock(startMs = 0): FakeClock {
  let nowMs = startMs;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const delays: number[] = [];
  return {
    delays,
    now: () => nowMs,
    setTimeout(callback, ms) {
      delays.push(ms);
      const handle = nextHandle++;
      timers.set(handle, { at: nowMs + ms, callback });
      return handle;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pendingCount: () => timers.size,
    advanceToNextTimer() {
      let earliest: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of timers) if (earliest === undefined || entry[1].at < earliest[1].at) earliest = entry;
      if (earliest === undefined) return false;
      timers.delete(earliest[0]);
      nowMs = Math.max(nowMs, earliest[1].at);
      earliest[1].callback();
      return true;
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
