import type { Clock } from '../../core/clock.ts';

/** Options of {@link createStallGuard}. */
export interface StallGuardOptions {
  clock: Clock;
  /** Bytes waiting this long with none taken → `onStall`. */
  timeoutMs: number;
  /** Called once when the client has stalled (the stream then fails, so its connection is cut). */
  onStall: () => void;
}

/** Watches that the reader of a stream keeps taking what the stream has queued. */
export interface StallGuard {
  /** The stream's queue is full: the producer waits for the reader from now on. */
  waiting(): void;
  /** The reader took bytes (its `pull`): whatever waited is moving again. */
  taken(): void;
  /** Stops watching (the stream is over). */
  stop(): void;
}

/**
 * Creates a {@link StallGuard}: detects, by time, a reader that has stopped reading.
 *
 * The event stream is pull-based: it queues at most its high-water mark, then its producer waits
 * until the reader pulls. Whoever reads it (the Node adapter, a framework's server) pulls only
 * while its own socket takes the bytes, so once the client stops, its receive window, the kernel's
 * send buffer and the server's own buffer fill (hundreds of KiB to a few MiB), pulls stop and the
 * producer waits. From the moment it starts waiting, a timer on the injected clock checks that the
 * reader has pulled within `timeoutMs`; if not, `onStall` runs. Until those buffers are full a
 * non-reading client cannot be told from a reading one; `maxStreamDurationSec` bounds that case.
 */
export function createStallGuard(options: StallGuardOptions): StallGuard {
  const { clock, timeoutMs } = options;
  let timer: unknown = null;
  let isStopped = false;
  const disarm = (): void => {
    if (timer === null) return;
    clock.clearTimeout(timer);
    timer = null;
  };
  return {
    waiting() {
      if (isStopped || timer !== null) return;
      timer = clock.setTimeout(() => {
        timer = null;
        if (isStopped) return;
        isStopped = true;
        options.onStall();
      }, timeoutMs);
    },
    taken: disarm,
    stop() {
      isStopped = true;
      disarm();
    },
  };
}
