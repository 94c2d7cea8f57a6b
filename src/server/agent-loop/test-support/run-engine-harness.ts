import type { EventEnvelope, EventType } from '../../../core/protocol.ts';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { pickDefined } from '../../../core/pick-defined.ts';
import { createDemoTools } from '../../tools/demo-tools.ts';
import { createRunEngine } from '../create-run-engine.ts';
import type { EngineLogEntry, RunEngineOptions } from '../engine-options.ts';
import { assertEventInvariants } from './assert-event-invariants.ts';
import type { MemoryRun, MemoryRunHandleOptions } from './memory-run-handle.ts';
import { createMemoryRunHandle } from './memory-run-handle.ts';
import type { FakeClock } from '../../../../test/support/fake-clock.ts';
import { createFakeClock } from '../../../../test/support/fake-clock.ts';

/** A run of the real engine over a memory handle and a virtual clock. */
export interface EngineHarness extends MemoryRun {
  clock: FakeClock;
  logs: EngineLogEntry[];
  /** Resolves when `engine.start` resolves; then checks the docs/protocol.md §7 invariants of the whole log. */
  done: Promise<void>;
}

/**
 * Starts the engine on a memory run of `text`: ids count per prefix (`msg_1`, `tc_1`, `int_1`),
 * jitter is fixed at 0.5, logs are collected, and time is virtual. The model is offered the demo
 * tools on that virtual time unless `tools` says otherwise (`[]` for none; the engine's own
 * default is none). With `resumeLog`, the run is that log (written by an earlier process) and the
 * engine `resume`s it instead.
 */
export function startEngine(
  text: string,
  options: RunEngineOptions &
    Pick<MemoryRunHandleOptions, 'history' | 'historyToolCalls' | 'input' | 'options' | 'versionId'> & {
      resumeLog?: readonly EventEnvelope[];
      startAt?: number;
    } = {},
): EngineHarness {
  const clock = createFakeClock(options.startAt ?? 1_800_000_000_000);
  const counters = new Map<string, number>();
  const ids = (prefix: string): string => {
    const next = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, next);
    return `${prefix}_${next}`;
  };
  const logs: EngineLogEntry[] = [];
  const {
    history,
    historyToolCalls,
    input,
    options: runOptions,
    versionId,
    resumeLog,
    startAt: _startAt,
    ...engineOptions
  } = options;
  const run = createMemoryRunHandle({
    text,
    now: clock.now,
    ...pickDefined({ history, historyToolCalls, input, options: runOptions, versionId }),
    ...(resumeLog === undefined ? {} : { log: resumeLog }),
  });
  const engine = createRunEngine({
    clock,
    sleep: clock.sleep,
    ids,
    random: () => 0.5,
    log: (entry) => logs.push(entry),
    tools: createDemoTools({ sleep: clock.sleep }),
    ...engineOptions,
  });
  const started = resumeLog === undefined ? engine.start(run.handle) : engine.resume?.(run.handle);
  const done = Promise.resolve(started).then(() => assertEventInvariants(run.events()));
  return { ...run, clock, logs, done };
}

/** The event types with each run of consecutive `*_CONTENT` events folded into one `…_CONTENT*`. */
export function foldTypes(events: readonly EventEnvelope[]): string[] {
  const folded: string[] = [];
  for (const event of events) {
    const type: EventType = event.type;
    const name = type.endsWith('_CONTENT') ? `${type}*` : type;
    if (name.endsWith('*') && folded.at(-1) === name) continue;
    folded.push(name);
  }
  return folded;
}

/** The `data` of every event of `type`, in order. */
export function dataOf<T extends EventType>(events: readonly EventEnvelope[], type: T): EventEnvelope<T>['data'][] {
  return events.filter((event): event is EventEnvelope<T> => event.type === type).map((event) => event.data);
}

/** Lets the engine run every step it can take without time passing (all pending microtasks). */
export async function settle(): Promise<void> {
  await yieldToEventLoop();
}
