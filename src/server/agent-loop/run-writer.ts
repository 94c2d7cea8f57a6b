import type { EventDataMap, EventEnvelope, EventType, RunSnapshot } from '../../core/protocol.ts';
import type { PendingEvent, RunHandle } from '../runs/run-handle.ts';

/**
 * The engine's one way to write a run's log: every write is queued behind the previous one, so
 * events fired from timers (coalesced deltas, progress) keep their order relative to awaited
 * writes. The first failure of a fire-and-forget `post` is kept and rethrown by `drain`.
 */
export interface RunWriter {
  append<T extends EventType>(type: T, data: EventDataMap[T]): Promise<EventEnvelope<T>>;
  /** Queues an append without waiting; its failure surfaces at the next `drain`. */
  post<T extends EventType>(type: T, data: EventDataMap[T]): void;
  transact(build: (snapshot: RunSnapshot) => readonly PendingEvent[]): Promise<EventEnvelope[]>;
  /** Resolves once every queued write is done; rejects with the first failed `post`. */
  drain(): Promise<void>;
  /** Throws the first failed `post` seen so far (e.g. `RunClosedError`), if any. */
  check(): void;
}

/** Creates the serial writer over `handle`. */
export function createRunWriter(handle: RunHandle): RunWriter {
  let tail: Promise<unknown> = Promise.resolve();
  let failure: unknown = undefined;
  const enqueue = <R>(operation: () => Promise<R>): Promise<R> => {
    const result = tail.then(operation);
    tail = result.catch(() => undefined);
    return result;
  };
  return {
    append: (type, data) => enqueue(() => handle.append(type, data)),
    post: (type, data) => {
      enqueue(() => handle.append(type, data)).catch((error: unknown) => {
        failure ??= error;
      });
    },
    transact: (build) => enqueue(() => handle.transact(build)),
    check: () => {
      if (failure !== undefined) throw failure;
    },
    drain: async () => {
      await enqueue(() => Promise.resolve());
      if (failure !== undefined) throw failure;
    },
  };
}
