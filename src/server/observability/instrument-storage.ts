import { EventLogConflictError } from '../runs/event-log.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import { IdempotencyLockLostError } from '../storage/storage-port.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { RunTelemetry } from './run-telemetry.ts';
import type { StructuredLog } from './structured-log.ts';

/** Options of {@link instrumentStorage}. */
export interface InstrumentStorageOptions {
  metrics: AgentMetrics | null;
  log: StructuredLog;
  runs: RunTelemetry;
  /** The id of the request being served, when there is one. */
  requestId: () => string | undefined;
}

/**
 * Wraps every asynchronous method of `storage` (the port, whatever the backend): times each call
 * (`agent_chat_storage_operation_duration_seconds{operation, outcome}`), logs each failure
 * (`storage_failed`, rethrown unchanged; a refusal the port promises, like a fenced append that
 * lost, is `outcome="refused"` and not logged), and tells the run telemetry about each run it
 * committed and each batch of events it appended. Synchronous results pass through.
 */
export function instrumentStorage(storage: AgentStorage, options: InstrumentStorageOptions): AgentStorage {
  const { metrics, log, runs } = options;
  const wrappers = new Map<PropertyKey, unknown>();
  const observe = (operation: string, outcome: string, startedAt: number): void =>
    metrics?.storageDuration.observe({ operation, outcome }, (performance.now() - startedAt) / 1000);
  const wrap = (operation: string, method: (...args: unknown[]) => unknown) =>
    function instrumented(...args: unknown[]): unknown {
      const startedAt = performance.now();
      const result = method.apply(storage, args);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (answer: unknown) => {
          observe(operation, 'ok', startedAt);
          if (operation === 'appendEvents') runs.eventsAppended(args[0] as string, args[2] as never);
          else if (operation === 'createRun' && (answer as { kind?: unknown }).kind === 'created') {
            runs.runCreated(args[0] as never, options.requestId());
          }
          return answer;
        },
        (error: unknown) => {
          const isRefusal =
            error instanceof EventLogConflictError ||
            error instanceof RunClosedError ||
            error instanceof IdempotencyLockLostError;
          observe(operation, isRefusal ? 'refused' : 'error', startedAt);
          if (!isRefusal) {
            log.write('error', 'storage_failed', {
              requestId: options.requestId(),
              operation,
              ...log.describeError(error),
            });
          }
          throw error;
        },
      );
    };
  return new Proxy(storage, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'subscribe') return value;
      let wrapper = wrappers.get(key);
      if (wrapper === undefined) {
        wrapper = wrap(key, value as (...args: unknown[]) => unknown);
        wrappers.set(key, wrapper);
      }
      return wrapper;
    },
  });
}
