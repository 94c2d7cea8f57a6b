import type { EventDataMap, EventEnvelope, EventType, RunSnapshot } from '../../core/protocol.ts';
import { PROTOCOL_MAJOR, isTerminalEvent, isTerminalRunStatus } from '../../core/protocol.ts';
import { createEmptyRunSnapshot, reduceRun } from '../../core/state/run-reducer.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import { EndedRunRecord } from './ended-run-record.ts';
import type { EventLog } from './event-log.ts';
import type { PendingEvent, RunHandle } from './run-handle.ts';
import { RunClosedError } from './run-handle.ts';

/** Options of {@link createRunRecord}. */
export interface RunRecordOptions {
  runId: string;
  sessionId: string;
  eventLog: EventLog;
  clock: { now(): number };
  ids: (prefix: string) => string;
  /** Called inside the write step that appended the run's terminal event. */
  onTerminal: (envelope: EventEnvelope) => void;
}

/**
 * A cap on the envelopes of one write that came from a request (docs/protocol.md §16.2): an envelope
 * whose JSON is longer than `maxEventBytes` rejects the write with `422 VALIDATION_FAILED`
 * (`details.limit: 'maxEventBytes'`, `field`) and nothing is appended.
 */
export interface EventSizeCap {
  maxEventBytes: number;
  /** The request field the event carries, named in the problem. */
  field: string;
}

/** One run's writer: the serial write queue, the reducer-maintained snapshot and its waiters. */
export interface RunRecord {
  readonly runId: string;
  readonly sessionId: string;
  /** The reducer over the whole log so far, updated in the same step as each append. */
  snapshot(): RunSnapshot;
  isTerminal(): boolean;
  /** `RunHandle.append` semantics: rejects with `RunClosedError` after the terminal event. */
  append<T extends EventType>(type: T, data: EventDataMap[T], cap?: EventSizeCap): Promise<EventEnvelope<T>>;
  /**
   * `RunHandle.transact` semantics: `build` always runs (so callers may throw a problem from
   * it, which rejects without appending); on a terminal run its events are ignored.
   */
  transact(build: (snapshot: RunSnapshot) => readonly PendingEvent[], cap?: EventSizeCap): Promise<EventEnvelope[]>;
  waitFor: RunHandle['waitFor'];
  /** The seq of the `INTERRUPT_RESOLVED` event of `interruptId`, if any. */
  resolutionSeq(interruptId: string): number | undefined;
  /**
   * Returns the compact form of an ended run (the same answers, none of the live machinery); the
   * record itself while the run is still live.
   */
  compact(): RunRecord;
}

interface Waiter {
  predicate: (snapshot: RunSnapshot) => boolean;
  resolve: (snapshot: RunSnapshot) => void;
}

/** Creates a run's writer over `eventLog`. Every write runs in one serial queue per run. */
export function createRunRecord(options: RunRecordOptions): RunRecord {
  const { runId, sessionId, eventLog, clock, ids, onTerminal } = options;
  let snapshot = createEmptyRunSnapshot(runId, sessionId);
  let tail: Promise<unknown> = Promise.resolve();
  const waiters = new Set<Waiter>();
  const resolutions = new Map<string, number>();

  const enqueue = <T>(step: () => Promise<T>): Promise<T> => {
    const result = tail.then(step);
    tail = result.then(noop, noop);
    return result;
  };

  const commit = async (events: readonly PendingEvent[], cap: EventSizeCap | undefined): Promise<EventEnvelope[]> => {
    if (isTerminalRunStatus(snapshot.status) || events.length === 0) return [];
    const base = snapshot.lastSeq;
    const timestamp = clock.now();
    const envelopes = events.map((event, index): EventEnvelope => {
      const seq = base + index + 1;
      return {
        v: PROTOCOL_MAJOR,
        eventId: ids('evt'),
        runId,
        sessionId,
        seq,
        cursor: String(seq),
        type: event.type,
        timestamp,
        data: event.data,
      };
    });
    if (cap !== undefined) checkSizes(envelopes, cap);
    const terminalIndex = envelopes.findIndex(isTerminalEvent);
    if (terminalIndex >= 0 && terminalIndex !== envelopes.length - 1) {
      throw new RangeError(`Run ${runId}: a terminal event must be the last of its batch.`);
    }
    await eventLog.append(runId, base, envelopes);
    for (const envelope of envelopes) {
      snapshot = reduceRun(snapshot, envelope);
      if (envelope.type === 'INTERRUPT_RESOLVED') {
        resolutions.set((envelope.data as EventDataMap['INTERRUPT_RESOLVED']).interruptId, envelope.seq);
      }
    }
    const last = envelopes[envelopes.length - 1] as EventEnvelope;
    if (isTerminalEvent(last)) onTerminal(last);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(snapshot)) {
        waiters.delete(waiter);
        waiter.resolve(snapshot);
      }
    }
    return envelopes;
  };

  const record: RunRecord = {
    runId,
    sessionId,
    snapshot: () => snapshot,
    isTerminal: () => isTerminalRunStatus(snapshot.status),
    append(type, data, cap) {
      return enqueue(async () => {
        if (isTerminalRunStatus(snapshot.status)) throw new RunClosedError(runId);
        const [envelope] = await commit([{ type, data } as PendingEvent], cap);
        return envelope as EventEnvelope<typeof type>;
      });
    },
    transact(build, cap) {
      return enqueue(async () => commit(build(snapshot), cap));
    },
    waitFor(predicate, signal) {
      if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
      if (predicate(snapshot)) return Promise.resolve(snapshot);
      return new Promise<RunSnapshot>((resolve, reject) => {
        const onAbort = (): void => {
          waiters.delete(waiter);
          reject(signal?.reason as Error);
        };
        const waiter: Waiter = {
          predicate,
          resolve: (value) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(value);
          },
        };
        waiters.add(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    resolutionSeq: (interruptId) => resolutions.get(interruptId),
    compact() {
      if (!isTerminalRunStatus(snapshot.status)) return record;
      return new EndedRunRecord(runId, sessionId, snapshot, resolutions.size === 0 ? null : new Map(resolutions));
    },
  };
  return record;
}

function checkSizes(envelopes: readonly EventEnvelope[], cap: EventSizeCap): void {
  for (const envelope of envelopes) {
    const bytes = Buffer.byteLength(JSON.stringify(envelope), 'utf8');
    if (bytes > cap.maxEventBytes) {
      failOverLimit({
        field: cap.field,
        limit: 'maxEventBytes',
        max: cap.maxEventBytes,
        actual: bytes,
        detail: `Stored, this would be a ${bytes}-byte event; the limit is ${cap.maxEventBytes} bytes.`,
        extra: { eventType: envelope.type },
      });
    }
  }
}

function noop(): void {}
