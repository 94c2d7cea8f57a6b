import type { RunEngine, RunHandle } from '../runs/run-handle.ts';
import type { RunTelemetry } from './run-telemetry.ts';

/** Hands `engine` each run's handle with `observer` set, so its model calls reach the handler's telemetry. */
export function observeEngine(engine: RunEngine, runs: RunTelemetry): RunEngine {
  const observed = (handle: RunHandle): RunHandle => ({ ...handle, observer: runs.observerFor(handle) });
  return {
    start: (handle) => engine.start(observed(handle)),
    ...(engine.resume === undefined ? {} : { resume: (handle: RunHandle) => engine.resume!(observed(handle)) }),
  };
}
