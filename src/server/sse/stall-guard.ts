import type { ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.ts';

/** Options of {@link createStallGuard}. */
export interface StallGuardOptions {
  res: ServerResponse;
  clock: Clock;
  /** Bytes waiting this long with none accepted → `onStall`. */
  timeoutMs: number;
  /** Called once when the client has stalled (the stream destroys the response). */
  onStall: () => void;
}

/** Writes to a response and watches that the client keeps taking the bytes. */
export interface StallGuard {
  /** `res.write(text)`, tracked; returns what `res.write` returned (false: wait for `drain`). */
  write(text: string): boolean;
  /** Stops watching (the stream is over). */
  stop(): void;
}

/**
 * Creates a {@link StallGuard}: detects, by time, a client that has stopped reading.
 *
 * Node cannot see TCP acknowledgements; what it can see is a write's callback, which runs once the
 * kernel has taken the bytes into the socket's send buffer. That buffer only empties as the peer
 * acknowledges, so while the client reads, writes are taken at once (`res.writableLength` drops to
 * 0); once the client stops, its receive window and then our send buffer fill (hundreds of KiB to
 * a few MiB, depending on the OS), after which bytes wait in the process. From the first write
 * that had to wait, a timer on the injected clock checks that some write has been taken within
 * `timeoutMs`; if none has, `onStall` runs. Until the kernel buffers are full a non-reading
 * client cannot be told from a reading one; `maxStreamDurationSec` bounds that case.
 */
export function createStallGuard(options: StallGuardOptions): StallGuard {
  const { res, clock, timeoutMs } = options;
  let pendingWrites = 0;
  let lastAcceptedAt = clock.now();
  let timer: unknown = null;
  let isStopped = false;

  const disarm = (): void => {
    if (timer === null) return;
    clock.clearTimeout(timer);
    timer = null;
  };
  const check = (): void => {
    timer = null;
    if (isStopped || pendingWrites === 0) return;
    const waitedMs = clock.now() - lastAcceptedAt;
    if (waitedMs >= timeoutMs) {
      isStopped = true;
      options.onStall();
      return;
    }
    timer = clock.setTimeout(check, timeoutMs - waitedMs);
  };
  const onAccepted = (): void => {
    pendingWrites -= 1;
    lastAcceptedAt = clock.now();
    if (pendingWrites === 0) disarm();
  };

  return {
    write(text) {
      // Everything before was taken: the wait for this write starts now.
      if (pendingWrites === 0) lastAcceptedAt = clock.now();
      pendingWrites += 1;
      const isBelowHighWaterMark = res.write(text, onAccepted);
      // The kernel took it at once unless bytes are still held in the process.
      if (!isStopped && timer === null && pendingWrites > 0 && res.writableLength > 0) {
        timer = clock.setTimeout(check, timeoutMs);
      }
      return isBelowHighWaterMark;
    },
    stop() {
      isStopped = true;
      disarm();
    },
  };
}
