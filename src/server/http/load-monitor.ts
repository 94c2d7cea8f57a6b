import { performance } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';

/** Whether the process is saturated right now (load shedding, docs/server.md "Overload"). */
export interface LoadMonitor {
  isOverloaded(): boolean;
  /** The event loop utilisation of the last window, 0..1 (for stats). */
  utilization(): number;
  close(): void;
}

/**
 * Creates a {@link LoadMonitor} over the event loop utilisation (the share of time the loop was
 * busy rather than waiting for I/O), sampled every `windowMs`: the process counts as overloaded
 * while each of the last two windows was at least `threshold` busy, so only a saturation that
 * lasts (not one slow callback or a GC pause) sheds work, and it stops one window after the load
 * drops. A `threshold` above 1 turns it off (no timer at all). Uses real time, never a test clock:
 * the load is the process's own.
 */
export function createLoadMonitor(options: { threshold: number; windowMs?: number }): LoadMonitor {
  if (!(options.threshold <= 1)) {
    return { isOverloaded: () => false, utilization: () => 0, close: () => undefined };
  }
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let previous = 0;
  let current = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    previous = current;
    current = performance.eventLoopUtilization(now, last).utilization;
    last = now;
  }, options.windowMs ?? 500);
  timer.unref();
  return {
    isOverloaded: () => previous >= options.threshold && current >= options.threshold,
    utilization: () => current,
    close: () => clearInterval(timer),
  };
}
