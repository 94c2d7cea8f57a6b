import type { EventDataMap, EventEnvelope, EventType } from '../../protocol.ts';
import { PROTOCOL_MAJOR } from '../../protocol.ts';

/** Epoch ms that `eventFactory` stamps on seq 0; seq `n` is stamped `EVENT_EPOCH_MS + n * 100`. */
export const EVENT_EPOCH_MS = 1_795_966_800_000;

/** Builds wire events of one run with deterministic envelope fields, for tests. */
export interface EventFactory {
  readonly runId: string;
  readonly sessionId: string;
  /** Builds the event after the previous `next` (seq 1 first) and advances the counter. */
  next<T extends EventType>(type: T, data: EventDataMap[T]): EventEnvelope<T>;
  /** Builds an event at an explicit `seq` without touching the counter (overlaps, gaps, tables). */
  at<T extends EventType>(seq: number, type: T, data: EventDataMap[T]): EventEnvelope<T>;
}

/**
 * Returns an `EventFactory` for `runId`/`sessionId`. Every event it builds has `v` 1, the
 * reference cursor (the decimal seq, as the server mints it), `eventId` `evt_` + the seq padded
 * to 6 digits (stable: the same seq always gets the same id, like a replay), and the timestamp
 * `eventTimestampAt(seq)`. Use it wherever a test needs envelopes; it performs no validation, so
 * a test can build out-of-order or foreign events on purpose.
 */
export function eventFactory(runId: string, sessionId: string): EventFactory {
  let lastSeq = 0;
  const at = <T extends EventType>(seq: number, type: T, data: EventDataMap[T]): EventEnvelope<T> => ({
    v: PROTOCOL_MAJOR,
    eventId: `evt_${String(seq).padStart(6, '0')}`,
    runId,
    sessionId,
    seq,
    cursor: String(seq),
    type,
    timestamp: eventTimestampAt(seq),
    data,
  });
  return {
    runId,
    sessionId,
    at,
    next(type, data) {
      lastSeq += 1;
      return at(lastSeq, type, data);
    },
  };
}

/** Returns the timestamp `eventFactory` gives the event with `seq`. */
export function eventTimestampAt(seq: number): number {
  return EVENT_EPOCH_MS + seq * 100;
}
