import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { EngineClock, Sleep } from '../engine-clock.ts';

/** A clock whose time only moves when someone sleeps or calls `advance`. */
export interface VirtualClock extends EngineClock {
  /** Yields to the event loop once, then moves time forward by `ms`, firing due timers in order. */
  sleep: Sleep;
  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void;
}

/**
 * Creates a virtual clock for tests: `sleep` advances time itself, so a scripted model with
 * 40 ms deltas and a 60 s timeout runs in microseconds while timers still fire in the right
 * order. Each sleep yields once to the event loop so test code can act between deltas.
 */
export function createVirtualClock(start = 1_800_000_000_000): VirtualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const advance = (ms: number): void => {
    const target = now + Math.max(0, ms);
    for (;;) {
      let dueId: number | undefined;
      let dueAt = Number.POSITIVE_INFINITY;
      for (const [id, timer] of timers) {
        if (timer.at <= target && timer.at < dueAt) {
          dueAt = timer.at;
          dueId = id;
        }
      }
      if (dueId === undefined) break;
      const timer = timers.get(dueId);
      timers.delete(dueId);
      now = Math.max(now, dueAt);
      timer?.callback();
    }
    now = target;
  };
  return {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId;
      nextId += 1;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
    advance,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      await yieldToEventLoop();
      signal?.throwIfAborted();
      advance(ms);
      signal?.throwIfAborted();
    },
  };
}
