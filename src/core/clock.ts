/** The time source the transport uses; inject a fake one so tests never wait. */
export interface TransportClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Schedules `callback` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Creates a clock over the runtime's own `Date.now`, `setTimeout` and `clearTimeout`. */
export function createSystemClock(): TransportClock {
  return {
    now: () => Date.now(),
    // Arrow wrappers: browsers throw "Illegal invocation" when timers are called off `globalThis`.
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
  };
}
