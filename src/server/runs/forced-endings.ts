import type { RunSnapshot } from '../../core/protocol.ts';
import { closeOpenItems, pendingInputIds } from './close-open-items.ts';
import type { PendingEvent } from './run-handle.ts';

/** What a forced ending needs besides the snapshot. */
export interface ForcedEndingOptions {
  /** The cancel reason the abort signal carries, when it is a string. */
  cancelReason: unknown;
  /** Mints ids for synthesized tool results (e.g. `() => ids('msg')`). */
  newMessageId: () => string;
}

/**
 * Returns the events that cancel a run its engine did not finish in the grace time: everything
 * open closed as cancelled, then `RUN_FINISHED{cancelled, forced:true}` (docs/server.md).
 */
export function buildForcedCancel(snapshot: RunSnapshot, options: ForcedEndingOptions): PendingEvent[] {
  const { cancelReason } = options;
  return [
    ...closeOpenItems(snapshot, { reason: 'cancelled', newMessageId: options.newMessageId }),
    {
      type: 'RUN_FINISHED',
      data: {
        outcome: {
          type: 'cancelled',
          ...(typeof cancelReason === 'string' ? { reason: cancelReason } : {}),
          forced: true,
        },
        unconsumedInputIds: pendingInputIds(snapshot),
      },
    },
  ];
}

/**
 * Returns the events that end a run whose engine threw or returned without a terminal event: a
 * forced cancel when one was requested, else everything open closed as an error and
 * `RUN_ERROR{INTERNAL, retryable:true, correlationId}`.
 */
export function buildAbandonedEnding(
  snapshot: RunSnapshot,
  options: ForcedEndingOptions & { correlationId: string },
): PendingEvent[] {
  return buildErrorEnding(snapshot, options, {
    code: 'INTERNAL',
    message: 'The agent stopped unexpectedly. Please try again.',
  });
}

/**
 * Returns the events that end a run whose producing process stopped renewing its lease (it died,
 * docs/server.md "Restarts"): a forced cancel when one was requested, else everything open closed
 * as an error and `RUN_ERROR{RUN_ABANDONED, retryable:true, correlationId}`.
 */
export function buildLeaseExpiredEnding(
  snapshot: RunSnapshot,
  options: ForcedEndingOptions & { correlationId: string },
): PendingEvent[] {
  return buildErrorEnding(snapshot, options, { code: 'RUN_ABANDONED', message: RUN_ABANDONED_MESSAGE });
}

/** What a user reads when the process writing their answer stopped (the reaper and the engine say the same). */
export const RUN_ABANDONED_MESSAGE = 'The server stopped while this answer was being written. You can try again.';

function buildErrorEnding(
  snapshot: RunSnapshot,
  options: ForcedEndingOptions & { correlationId: string },
  error: { code: string; message: string },
): PendingEvent[] {
  if (snapshot.status === 'cancelling') return buildForcedCancel(snapshot, options);
  return [
    ...closeOpenItems(snapshot, { reason: 'error', newMessageId: options.newMessageId }),
    {
      type: 'RUN_ERROR',
      data: {
        ...error,
        retryable: true,
        correlationId: options.correlationId,
        unconsumedInputIds: pendingInputIds(snapshot),
      },
    },
  ];
}
