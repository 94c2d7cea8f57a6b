import type { EventEnvelope, RunSnapshot } from '../../core/protocol.ts';
import { isTerminalEvent } from '../../core/protocol.ts';
import type { AppendOptions } from './storage-port.ts';

/**
 * Checks a batch before any implementation stores it: every event belongs to `runId` and the
 * seqs continue `expectedLastSeq` gaplessly, a terminal event comes last and only with its final
 * snapshot. Throws a `RangeError` naming the problem (a bug in the writer, never a race).
 * Returns whether the batch ends the run.
 */
export function checkAppendBatch(
  runId: string,
  expectedLastSeq: number,
  events: readonly EventEnvelope[],
  options: AppendOptions,
): boolean {
  events.forEach((event, index) => {
    if (event.runId !== runId || event.seq !== expectedLastSeq + index + 1) {
      throw new RangeError(`Run ${runId}: event seq ${event.seq} does not continue the log gaplessly.`);
    }
    if (isTerminalEvent(event) && index !== events.length - 1) {
      throw new RangeError(`Run ${runId}: a terminal event must be the last of its batch.`);
    }
  });
  const last = events[events.length - 1];
  const isEnding = last !== undefined && isTerminalEvent(last);
  if (isEnding && options.finalSnapshot?.lastSeq !== last.seq) {
    throw new RangeError(`Run ${runId}: the terminal batch needs the final snapshot at seq ${last.seq}.`);
  }
  return isEnding;
}

/** The snapshot without its messages: those are stored once, as the session's settled history. */
export function withoutMessages(snapshot: RunSnapshot): RunSnapshot {
  return { ...snapshot, messages: [] };
}
