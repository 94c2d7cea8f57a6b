import type { EventEnvelope, EventType, RunSnapshot } from '../../core/protocol.ts';
import type { PendingEvent } from './run-handle.ts';
import { RunClosedError } from './run-handle.ts';
import type { RunRecord } from './run-record.ts';

/**
 * The compact form of a run that has its terminal event: the same answers as its live record
 * (`RunRecord`'s contract on a terminal run) without the write queue, waiters or closures, so a
 * kept run costs little more than its snapshot (docs/server.md, "Memory"). Its methods live on
 * the prototype; an instance holds four fields.
 */
export class EndedRunRecord implements RunRecord {
  constructor(
    readonly runId: string,
    readonly sessionId: string,
    private readonly ended: RunSnapshot,
    /** Seq of each `INTERRUPT_RESOLVED` by interrupt id; null when the run resolved none. */
    private readonly resolutions: ReadonlyMap<string, number> | null,
  ) {}

  snapshot(): RunSnapshot {
    return this.ended;
  }

  isTerminal(): boolean {
    return true;
  }

  append<T extends EventType>(): Promise<EventEnvelope<T>> {
    return Promise.reject(new RunClosedError(this.runId));
  }

  /** Runs `build` (it may throw a problem) and appends nothing: the run has ended. */
  async transact(build: (snapshot: RunSnapshot) => readonly PendingEvent[]): Promise<EventEnvelope[]> {
    build(this.ended);
    return [];
  }

  /** Resolves at once when the ended snapshot satisfies `predicate`; otherwise only an abort settles it. */
  waitFor(predicate: (snapshot: RunSnapshot) => boolean, signal?: AbortSignal): Promise<RunSnapshot> {
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (predicate(this.ended)) return Promise.resolve(this.ended);
    return new Promise<RunSnapshot>((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }

  /** Nothing can follow the terminal event, so there is nothing to fold in. */
  refresh(): Promise<RunSnapshot> {
    return Promise.resolve(this.ended);
  }

  resolutionSeq(interruptId: string): number | undefined {
    return this.resolutions?.get(interruptId);
  }

  compact(): RunRecord {
    return this;
  }
}
