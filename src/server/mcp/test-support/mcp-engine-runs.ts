import { createFakeClock } from '../../../../test/support/fake-clock.ts';
import { createRunEngine } from '../../agent-loop/create-run-engine.ts';
import type { EngineLogEntry, RunEngineOptions } from '../../agent-loop/engine-options.ts';
import { assertEventInvariants } from '../../agent-loop/test-support/assert-event-invariants.ts';
import type { MemoryRun } from '../../agent-loop/test-support/memory-run-handle.ts';
import { createMemoryRunHandle } from '../../agent-loop/test-support/memory-run-handle.ts';

/** One engine with MCP servers, whose runs tests start one after another (its connections stay up between them). */
export interface McpEngineRuns {
  /** Starts a run of `text` (the scripted model reads it, e.g. `/call srv.tool {…}`). */
  start(text: string): MemoryRun & { done: Promise<void> };
  logs: EngineLogEntry[];
  close(): Promise<void>;
}

/**
 * Creates the real engine over memory runs and a virtual clock, with the scripted model and no
 * product tools unless `options` says otherwise; each run's log is checked against the
 * docs/protocol.md §7 invariants when it ends.
 */
export function createMcpEngineRuns(options: RunEngineOptions): McpEngineRuns {
  const clock = createFakeClock(1_800_000_000_000);
  const logs: EngineLogEntry[] = [];
  let count = 0;
  const engine = createRunEngine({
    clock,
    sleep: clock.sleep,
    ids: (prefix) => `${prefix}_${(count += 1)}`,
    random: () => 0.5,
    log: (entry) => logs.push(entry),
    tools: [],
    ...options,
  });
  return {
    logs,
    start(text) {
      const run = createMemoryRunHandle({ text, now: clock.now });
      const done = engine.start(run.handle).then(() => assertEventInvariants(run.events()));
      return { ...run, done };
    },
    close: () => engine.close(),
  };
}
