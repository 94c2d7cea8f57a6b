import type { EventEnvelope } from '../../core/protocol.ts';

/** Thrown by {@link EventLog.append} when the log's last seq is not the one the writer expected. */
export class EventLogConflictError extends Error {
  constructor(
    readonly runId: string,
    readonly expectedLastSeq: number,
    readonly actualLastSeq: number,
  ) {
    super(`Run ${runId}: expected last seq ${expectedLastSeq}, the log is at ${actualLastSeq}.`);
    this.name = 'EventLogConflictError';
  }
}

/**
 * A per-run, append-only, gapless event log (docs/server.md, "Runs, the log and the engine seam"). The log is the truth: SSE readers
 * re-read it after each doorbell and never take events from the producer's memory.
 */
export interface EventLog {
  /**
   * Appends a batch atomically after `expectedLastSeq` (the batch's seqs must continue it
   * gaplessly). Rejects with {@link EventLogConflictError} when another writer got there first:
   * that fences a zombie producer. Rings the run's doorbell once the batch is stored.
   */
  append(runId: string, expectedLastSeq: number, events: readonly EventEnvelope[]): Promise<void>;
  /** Events with `seq > afterSeq` in order, at most `limit` (default: all). */
  read(runId: string, afterSeq: number, limit?: number): Promise<EventEnvelope[]>;
  /** The seq of the run's last event, 0 when it has none. */
  lastSeq(runId: string): Promise<number>;
  /** The lowest seq still stored (`lastSeq + 1` when everything was trimmed; 1 when nothing was). */
  firstSeq(runId: string): Promise<number>;
  /**
   * Registers a doorbell: `onWake` is called (with no data) after appends to the run. A lost or
   * merged ring is harmless because readers re-read the log. Returns the unsubscribe function.
   */
  subscribe(runId: string, onWake: () => void): () => void;
  /** Drops the run's events with `seq <= throughSeq` (retention); `lastSeq` does not change. */
  trim(runId: string, throughSeq: number): Promise<void>;
  /** Forgets an evicted run entirely: its events, its seqs (it reads as an unknown run) and its doorbells. */
  remove(runId: string): Promise<void>;
}

interface MemoryRunLog {
  events: EventEnvelope[];
  /** Seq of `events[0]` (events before it were trimmed). */
  firstSeq: number;
  lastSeq: number;
}

/** Creates the in-memory {@link EventLog} (single process; the reference and test backend). */
export function createMemoryEventLog(): EventLog {
  const logs = new Map<string, MemoryRunLog>();
  const doorbells = new Map<string, Set<() => void>>();

  const logOf = (runId: string): MemoryRunLog => {
    let log = logs.get(runId);
    if (log === undefined) {
      log = { events: [], firstSeq: 1, lastSeq: 0 };
      logs.set(runId, log);
    }
    return log;
  };

  return {
    async append(runId, expectedLastSeq, events) {
      const log = logOf(runId);
      if (log.lastSeq !== expectedLastSeq) throw new EventLogConflictError(runId, expectedLastSeq, log.lastSeq);
      events.forEach((event, index) => {
        if (event.runId !== runId || event.seq !== expectedLastSeq + index + 1) {
          throw new RangeError(`Run ${runId}: event seq ${event.seq} does not continue the log gaplessly.`);
        }
      });
      if (events.length === 0) return;
      log.events.push(...events);
      log.lastSeq = expectedLastSeq + events.length;
      for (const onWake of [...(doorbells.get(runId) ?? [])]) onWake();
    },
    async read(runId, afterSeq, limit = Number.POSITIVE_INFINITY) {
      const log = logs.get(runId);
      if (log === undefined) return [];
      const start = Math.max(0, afterSeq + 1 - log.firstSeq);
      return log.events.slice(start, start + Math.min(limit, log.events.length));
    },
    async lastSeq(runId) {
      return logs.get(runId)?.lastSeq ?? 0;
    },
    async firstSeq(runId) {
      return logs.get(runId)?.firstSeq ?? 1;
    },
    subscribe(runId, onWake) {
      let set = doorbells.get(runId);
      if (set === undefined) {
        set = new Set();
        doorbells.set(runId, set);
      }
      set.add(onWake);
      return () => {
        const current = doorbells.get(runId);
        current?.delete(onWake);
        if (current?.size === 0) doorbells.delete(runId);
      };
    },
    async trim(runId, throughSeq) {
      const log = logs.get(runId);
      if (log === undefined || throughSeq < log.firstSeq) return;
      const through = Math.min(throughSeq, log.lastSeq);
      log.events.splice(0, through - log.firstSeq + 1);
      log.firstSeq = through + 1;
    },
    async remove(runId) {
      logs.delete(runId);
      doorbells.delete(runId);
    },
  };
}
