/**
 * Lets the process exit while `handle` is pending, when the clock's timers are Node's own (they
 * have `unref`); a fake clock's handles have none and are left as they are. For housekeeping
 * timers (reapers, sweepers) that must never keep a server process alive on their own.
 */
export function unrefTimer(handle: unknown): void {
  if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function') {
    handle.unref();
  }
}
