/** The time source of the agent loop; tests pass a virtual one so nothing really waits. */
export interface EngineClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Schedules `callback` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Waits `ms`; rejects with `signal.reason` when the signal aborts first (or already has). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Creates a clock over the runtime's `Date.now`, `setTimeout` and `clearTimeout`. */
export function createSystemClock(): EngineClock {
  return {
    now: () => Date.now(),
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
}

/** Creates a `Sleep` on top of `clock`'s timers. */
export function createClockSleep(clock: EngineClock): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clock.clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}
