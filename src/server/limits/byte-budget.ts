import type { Clock } from '../../core/clock.ts';
import type { RateDecision } from './rate-limiter.ts';

/** Bytes per key per hour (uploads per client, per identity), in this process's memory. */
export interface ByteBudget {
  /**
   * Counts `bytes` for `key` when they fit in what is left of its hour, else refuses them without
   * counting and says how long until they fit (whole milliseconds, ≥ 1).
   */
  take(key: string, bytes: number): RateDecision;
  /** Gives back bytes taken and never used (an upload that ended short). */
  refund(key: string, bytes: number): void;
  /** Forgets keys whose hour has refilled completely. */
  sweep(): void;
  /** Keys held (for tests). */
  size(): number;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Creates a {@link ByteBudget} of `bytesPerHour` per key (`Infinity` turns it off): a bucket that
 * holds an hour's bytes and refills evenly over the hour, so a key may take its whole hour at
 * once and then `bytesPerHour / 3600` bytes a second.
 */
export function createByteBudget(options: { bytesPerHour: number; clock: Pick<Clock, 'now'> }): ByteBudget {
  const { bytesPerHour, clock } = options;
  if (!(bytesPerHour > 0)) throw new RangeError('A byte budget must be a positive number of bytes per hour.');
  // Bytes used by each key as of `at`, counted in 1/HOUR_MS bytes so that they drain by exactly
  // `bytesPerHour` a millisecond (integer arithmetic while the numbers stay below 2^53).
  const used = new Map<string, { scaled: number; at: number }>();
  const usedNow = (key: string, now: number): number => {
    const entry = used.get(key);
    return entry === undefined ? 0 : Math.max(0, entry.scaled - (now - entry.at) * bytesPerHour);
  };
  return {
    take(key, bytes) {
      if (bytesPerHour === Number.POSITIVE_INFINITY) return { isAllowed: true };
      const now = clock.now();
      const current = usedNow(key, now);
      const over = current + bytes * HOUR_MS - bytesPerHour * HOUR_MS;
      if (over > 0) return { isAllowed: false, retryAfterMs: Math.max(1, Math.ceil(over / bytesPerHour)) };
      used.set(key, { scaled: current + bytes * HOUR_MS, at: now });
      return { isAllowed: true };
    },
    refund(key, bytes) {
      if (!used.has(key)) return;
      const now = clock.now();
      used.set(key, { scaled: Math.max(0, usedNow(key, now) - bytes * HOUR_MS), at: now });
    },
    sweep() {
      const now = clock.now();
      for (const key of used.keys()) if (usedNow(key, now) === 0) used.delete(key);
    },
    size: () => used.size,
  };
}
