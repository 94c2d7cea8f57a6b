import { createSystemClock } from '../../../core/clock.ts';
import type { EventEnvelope } from '../../../core/protocol.ts';
import type { EventReader } from '../../runs/event-log.ts';
import type { StreamRunEventsOptions } from '../stream-run-events.ts';

/** Stream settings for tests: heartbeats and the duration cap far off. */
export const TEST_STREAM_SETTINGS = {
  heartbeatSec: 15,
  clientIdleTimeoutSec: 45,
  maxStreamDurationSec: 300,
  retryMs: 1000,
};

/** A large `TEXT_DELTA` event (64 KiB), so a few of them fill a queue or a socket that nobody reads. */
export function bigEvent(seq: number): EventEnvelope {
  return {
    type: 'TEXT_DELTA',
    seq,
    cursor: `r1:${seq}`,
    runId: 'r1',
    sessionId: 's1',
    createdAt: '2026-12-03T00:00:00.000Z',
    data: { messageId: 'm1', delta: 'x'.repeat(64 * 1024) },
  } as unknown as EventEnvelope;
}

/** Whether `promise` settles within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return settled;
}

/** The options of a stream of run `r1` from its start, on the system clock, reporting nothing. */
export function testStreamOptions(signal: AbortSignal, eventLog: EventReader): StreamRunEventsOptions {
  return {
    signal,
    runId: 'r1',
    eventLog,
    afterSeq: 0,
    lastSeq: 0,
    settings: TEST_STREAM_SETTINGS,
    clock: createSystemClock(),
    headers: {},
    onError: () => undefined,
  };
}
