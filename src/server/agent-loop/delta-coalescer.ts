import type { Clock } from '../../core/clock.ts';

/** Options of {@link createDeltaCoalescer}. */
export interface DeltaCoalescerOptions {
  clock: Clock;
  /** Minimum time between two flushes (ms). */
  flushMs: number;
  /** Flush at once when this many UTF-8 bytes are buffered. */
  flushBytes: number;
  /** Receives each coalesced, non-empty delta, in order. */
  emit(delta: string): void;
}

/** Buffers streamed deltas of one message. */
export interface DeltaCoalescer {
  push(delta: string): void;
  /** Emits whatever is buffered now and cancels the pending timer. */
  flush(): void;
}

/**
 * Coalesces the deltas of one message (docs/protocol.md §16): the first delta goes out at once, later
 * ones at most every `flushMs`, or as soon as `flushBytes` are buffered. A timer flushes a
 * buffer the model leaves waiting, so text never sits unsent through a pause.
 */
export function createDeltaCoalescer(options: DeltaCoalescerOptions): DeltaCoalescer {
  const { clock, flushMs, flushBytes, emit } = options;
  let buffer = '';
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let timer: unknown = undefined;
  const flush = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    if (buffer === '') return;
    const delta = buffer;
    buffer = '';
    lastFlushAt = clock.now();
    emit(delta);
  };
  return {
    push(delta) {
      if (delta === '') return;
      buffer += delta;
      const waited = clock.now() - lastFlushAt;
      if (waited >= flushMs || Buffer.byteLength(buffer, 'utf8') >= flushBytes) {
        flush();
      } else if (timer === undefined) {
        timer = clock.setTimeout(flush, flushMs - waited);
      }
    },
    flush,
  };
}
