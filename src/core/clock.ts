/**
 * The one time source of the whole stack: the client core's transport and resume loop, the
 * server's handler, run store, event streams and agent loop all take a {@link Clock}, so tests
 * inject a fake one (`test/support/fake-clock.ts`) and nothing really waits.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Schedules `callback` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Waits `ms`; rejects with `signal.reason` when the signal aborts first (or already has). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Options of {@link sleep}. */
export interface SleepOptions {
  /** Aborting rejects the sleep at once with `signal.reason`. */
  signal?: AbortSignal;
  /** The timer source (default the system clock). */
  clock?: Clock;
}

/** Creates a clock over the runtime's own `Date.now`, `setTimeout` and `clearTimeout`. */
export function createSystemClock(): Clock {
  return {
    now: () => Date.now(),
    // Arrow wrappers: browsers throw "Illegal invocation" when timers are called off `globalThis`.
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
  };
}

/**
 * Resolves after `ms` on the given clock; rejects with `signal.reason` if the signal is (or
 * becomes) aborted first, and then clears its timer.
 */
export function sleep(ms: number, options: SleepOptions = {}): Promise<void> {
  const { signal, clock = createSystemClock() } = options;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Creates a {@link Sleep} on top of `clock`'s timers. */
export function createClockSleep(clock: Clock): Sleep {
  return (ms, signal) => sleep(ms, { clock, signal });
}
