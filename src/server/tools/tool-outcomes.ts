/**
 * Returned by a tool's `run` to end the run on purpose after this call (docs/agent-loop.md,
 * "Evidence"): the call completes with `result` (or the reason) as its content, no
 * further call or model turn runs, and the run finishes `RUN_FINISHED{outcome:{type:"stopped",
 * reason}}`: stopped, not failed.
 */
export class RunEnding {
  constructor(
    readonly reason: string,
    readonly result?: unknown,
  ) {}
}

/** Returns the value a tool returns to end the run on purpose, with the reason shown to the user. */
export function endRun(reason: string, result?: unknown): RunEnding {
  return new RunEnding(reason, result);
}
