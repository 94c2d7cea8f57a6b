import type { EventEnvelope } from '../../core/protocol.ts';

/**
 * Thrown by `AgentStorage.appendEvents` when the log's last seq is not the one the writer
 * expected: another writer got there first (docs/server.md, "Storage"). The writer re-reads and
 * decides again; a stale producer is fenced off.
 */
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
 * What an event stream reads a run's log through: the log is the truth, so SSE readers re-read it
 * after each doorbell and never take events from the producer's memory.
 */
export interface EventReader {
  /** Events with `seq > afterSeq` in order, at most `limit` (default: all). */
  read(runId: string, afterSeq: number, limit?: number): Promise<EventEnvelope[]>;
  /** Calls `onWake(lastSeq)` after appends to the run; a lost ring is harmless. Returns the unsubscribe. */
  subscribe(runId: string, onWake: (lastSeq: number) => void): () => void;
}
