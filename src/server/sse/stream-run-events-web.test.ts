import { describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.ts';
import { createSystemClock } from '../../core/clock.ts';
import type { EventReader } from '../runs/event-log.ts';
import type { RunEventStream } from './stream-run-events.ts';
import { streamRunEvents } from './stream-run-events.ts';
import { bigEvent, settlesWithin, testStreamOptions } from './test-support/stream-fixtures.ts';

describe('streamRunEvents as a Web stream (the fetch core, no socket)', () => {
  /** A log of `count` large events that counts how many it has handed out. */
  function countingLog(count: number): EventReader & { handedOut: () => number } {
    const events = Array.from({ length: count }, (_, index) => bigEvent(index + 1));
    let handedOut = 0;
    return {
      read: async (_runId, afterSeq, limit) => {
        const page = events.filter((event) => event.seq > afterSeq).slice(0, limit);
        handedOut += page.length;
        return page;
      },
      subscribe: () => () => undefined,
      handedOut: () => handedOut,
    };
  }

  function startWeb(
    eventLog: EventReader,
    signal: AbortSignal,
    stallTimeoutMs = 60_000,
    clock: Clock = createSystemClock(),
  ): RunEventStream {
    return streamRunEvents({ ...testStreamOptions(signal, eventLog), stallTimeoutMs, pageSize: 4, clock });
  }

  it('reads no more of the log while its reader does not read, then goes on as it reads', async () => {
    const log = countingLog(400);
    // The stall guard's timer is armed when the producer starts waiting for the reader: it is parked.
    const system = createSystemClock();
    let isParked = false;
    const clock: Clock = {
      ...system,
      setTimeout: (callback, ms) => {
        if (ms === 60_000) isParked = true;
        return system.setTimeout(callback, ms);
      },
    };
    const stream = startWeb(log, new AbortController().signal, 60_000, clock);
    await expect.poll(() => isParked).toBe(true);
    // 64 KiB queued at most, in pieces of 64 K characters: a page or two, never the 400 events (25 MiB).
    const parked = log.handedOut();
    expect(parked).toBeLessThanOrEqual(8);
    const reader = (stream.response.body as ReadableStream<Uint8Array>).getReader();
    for (let read = 0; read < 20; read += 1) await reader.read();
    expect(log.handedOut()).toBeGreaterThan(parked);
    stream.close();
    await reader.cancel();
    expect(await settlesWithin(stream.done, 2_000)).toBe(true);
  });

  it('fails its body once its reader has taken nothing for stallTimeoutMs', async () => {
    const stream = startWeb(countingLog(400), new AbortController().signal, 150);
    const reader = (stream.response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect(await settlesWithin(stream.done, 2_000)).toBe(true);
    // What was queued can still be read; then the stream reports the cut instead of a clean end.
    let outcome: 'ended' | 'failed' = 'ended';
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch {
      outcome = 'failed';
    }
    expect(outcome).toBe('failed');
  });

  it('ends when the request signal aborts, and tells onClientGone', async () => {
    const gone = new AbortController();
    let toldGone = 0;
    const stream = streamRunEvents({
      ...testStreamOptions(gone.signal, { read: async () => [], subscribe: () => () => undefined }),
      onClientGone: () => (toldGone += 1),
    });
    gone.abort();
    expect(await settlesWithin(stream.done, 2_000)).toBe(true);
    expect(toldGone).toBe(1);
  });
});
