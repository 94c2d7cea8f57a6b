import type { EventDataMap, EventEnvelope, EventType, RunSnapshot } from '../../core/protocol.ts';
import { PROTOCOL_MAJOR, isTerminalEvent, isTerminalRunStatus } from '../../core/protocol.ts';
import { foldExecutorEvents } from '../../core/state/fold-executor-events.ts';
import { createEmptyRunSnapshot, reduceRun } from '../../core/state/run-reducer.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import type { AgentStorage, IdempotencyCompletion } from '../storage/storage-port.ts';
import { EndedRunRecord } from './ended-run-record.ts';
import { EventLogConflictError } from './event-log.ts';
import type { PendingEvent, RunHandle } from './run-handle.ts';
import { RunClosedError } from './run-handle.ts';

/** The server's fold: every event, the executor events of browser tools included. */
const reduceFullRun = (snapshot: RunSnapshot, event: EventEnvelope): RunSnapshot =>
  reduceRun(snapshot, event, foldExecutorEvents);

/** Options of {@link createRunRecord}. */
export interface RunRecordOptions {
  runId: string;
  sessionId: string;
  storage: AgentStorage;
  /** The log so far when the run already has one (a run created earlier or by another process). */
  events?: readonly EventEnvelope[];
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
  transact(
    build: (snapshot: RunSnapshot) => readonly PendingEvent[],
    cap?: EventSizeCap,
    /** Completes an idempotency record in the same commit; gets the snapshot the events were built on. */
    idempotency?: (built: RunSnapshot) => IdempotencyCompletion,
  ): Promise<EventEnvelope[]>;
  /**
   * Folds in what other writers appended since (another process); resolves once caught up. With
   * `knownSeq` (a doorbell's), it reads nothing when the snapshot has reached that seq by its turn.
   */
  refresh(knownSeq?: number): Promise<RunSnapshot>;
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

/** How often one write re-reads the log and tries again after losing the fence to another writer. */
const MAX_CONFLICT_RETRIES = 8;

/**
 * Creates a run's writer over `storage`. Every write runs in one serial queue per run and is a
 * fenced append: when another writer (another process) got there first, the record folds in
 * what it wrote and builds the write again from the new snapshot, so a decision is always made
 * on the latest state (docs/server.md, "Storage").
 */
export function createRunRecord(options: RunRecordOptions): RunRecord {
  const { runId, sessionId, storage, clock, ids, onTerminal } = options;
  let snapshot = (options.events ?? []).reduce(reduceFullRun, createEmptyRunSnapshot(runId, sessionId));
  let tail: Promise<unknown> = Promise.resolve();
  const waiters = new Set<Waiter>();
  const resolutions = new Map<string, number>();

  for (const event of options.events ?? []) noteResolution(resolutions, event);

  const enqueue = <T>(step: () => Promise<T>): Promise<T> => {
    const result = tail.then(step);
    tail = result.then(noop, noop);
    return result;
  };

  const apply = (envelopes: readonly EventEnvelope[]): void => {
    for (const envelope of envelopes) {
      snapshot = reduceFullRun(snapshot, envelope);
      noteResolution(resolutions, envelope);
    }
    const last = envelopes[envelopes.length - 1];
    if (last !== undefined && isTerminalEvent(last)) onTerminal(last);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(snapshot)) {
        waiters.delete(waiter);
        waiter.resolve(snapshot);
      }
    }
  };

  const catchUp = async (): Promise<void> => {
    for (;;) {
      const events = await storage.readEvents(runId, snapshot.lastSeq, 500);
      if (events.length === 0) return;
      apply(events);
      if (events.length < 500) return;
    }
  };

  /** Commits `build(snapshot)`, re-reading and rebuilding when another writer won the fence. */
  const commitFenced = async (
    build: (current: RunSnapshot) => readonly PendingEvent[] | null,
    cap: EventSizeCap | undefined,
    idempotency: ((built: RunSnapshot) => IdempotencyCompletion) | undefined,
  ): Promise<EventEnvelope[] | null> => {
    for (let attempt = 0; ; attempt += 1) {
      const events = build(snapshot);
      if (events === null) return null;
      try {
        return await commit(events, cap, idempotency?.(snapshot));
      } catch (error) {
        if (!(error instanceof EventLogConflictError || error instanceof RunClosedError)) throw error;
        if (attempt >= MAX_CONFLICT_RETRIES) throw error;
        await catchUp();
      }
    }
  };

  const commit = async (
    events: readonly PendingEvent[],
    cap: EventSizeCap | undefined,
    idempotency: IdempotencyCompletion | undefined,
  ): Promise<EventEnvelope[]> => {
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
    const last = envelopes[envelopes.length - 1] as EventEnvelope;
    const finalSnapshot = isTerminalEvent(last) ? envelopes.reduce(reduceFullRun, snapshot) : undefined;
    await storage.appendEvents(runId, base, envelopes, {
      ...(finalSnapshot === undefined ? {} : { finalSnapshot }),
      ...(idempotency === undefined ? {} : { idempotency }),
    });
    apply(envelopes);
    return envelopes;
  };

  const record: RunRecord = {
    runId,
    sessionId,
    snapshot: () => snapshot,
    isTerminal: () => isTerminalRunStatus(snapshot.status),
    append(type, data, cap) {
      return enqueue(async () => {
        const appended = await commitFenced(
          (current) => (isTerminalRunStatus(current.status) ? null : [{ type, data } as PendingEvent]),
          cap,
          undefined,
        );
        if (appended === null) throw new RunClosedError(runId);
        return appended[0] as EventEnvelope<typeof type>;
      });
    },
    transact(build, cap, idempotency) {
      return enqueue(async () => (await commitFenced(build, cap, idempotency)) ?? []);
    },
    refresh(knownSeq) {
      return enqueue(async () => {
        if (knownSeq === undefined || snapshot.lastSeq < knownSeq) await catchUp();
        return snapshot;
      });
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

function noteResolution(resolutions: Map<string, number>, envelope: EventEnvelope): void {
  if (envelope.type !== 'INTERRUPT_RESOLVED') return;
  resolutions.set((envelope.data as EventDataMap['INTERRUPT_RESOLVED']).interruptId, envelope.seq);
}

/** Throws `422 VALIDATION_FAILED` (`limit: 'maxEventBytes'`) when an envelope's JSON passes the cap. */
export function checkSizes(envelopes: readonly EventEnvelope[], cap: EventSizeCap): void {
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
