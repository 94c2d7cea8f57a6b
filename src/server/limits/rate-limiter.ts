import type { Clock } from '../../core/clock.ts';

/** The answer of {@link RateLimiter.take}: allowed, or refused with the wait until the next one fits. */
export type RateDecision = { isAllowed: true } | { isAllowed: false; retryAfterMs: number };

/** Per-key rate limits, one bucket per (rule, key), in memory. */
export interface RateLimiter<Rule extends string> {
  /**
   * Counts one request of `rule` for `key` when it fits, else refuses it without counting it and
   * says how long until one fits (whole milliseconds, ≥ 1).
   */
  take(key: string, rule: Rule): RateDecision;
  /** Forgets buckets that have refilled completely (they behave like no bucket at all). */
  sweep(): void;
  /** Number of buckets held (for tests and operators). */
  size(): number;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions<Rule extends string> {
  clock: Pick<Clock, 'now'>;
  /** Requests allowed per minute for each rule (`Infinity` turns a rule off). */
  perMinute: Record<Rule, number>;
}

const WINDOW_MS = 60_000;

/**
 * Creates a {@link RateLimiter}: each rule is a token bucket of `perMinute` tokens that refills
 * evenly over a minute, so a burst of `perMinute` requests passes and then one every
 * `60 s / perMinute`. It is kept as the generic cell rate algorithm, one number per bucket: the
 * time at which the bucket is full again, counted in `1/perMinute` ms since the limiter was made,
 * so every step is integer arithmetic and nothing drifts.
 */
export function createRateLimiter<Rule extends string>(options: RateLimiterOptions<Rule>): RateLimiter<Rule> {
  const { clock, perMinute } = options;
  for (const [rule, count] of Object.entries<number>(perMinute)) {
    if (count !== Number.POSITIVE_INFINITY && !(Number.isInteger(count) && count >= 1)) {
      throw new RangeError(`Rate limit ${rule} must be a whole number of at least 1 per minute (or Infinity).`);
    }
  }
  const origin = clock.now();
  const buckets = new Map<Rule, Map<string, number>>();
  // "Now" in the rule's units (1/count ms), in which one request costs WINDOW_MS.
  const scaledNow = (count: number): number => (clock.now() - origin) * count;

  return {
    take(key, rule) {
      const count = perMinute[rule];
      if (count === Number.POSITIVE_INFINITY) return { isAllowed: true };
      let fullAtByKey = buckets.get(rule);
      if (fullAtByKey === undefined) {
        fullAtByKey = new Map();
        buckets.set(rule, fullAtByKey);
      }
      const now = scaledNow(count);
      const fullAt = Math.max(fullAtByKey.get(key) ?? now, now) + WINDOW_MS;
      const over = fullAt - now - WINDOW_MS * count;
      if (over > 0) return { isAllowed: false, retryAfterMs: Math.ceil(over / count) };
      fullAtByKey.set(key, fullAt);
      return { isAllowed: true };
    },
    sweep() {
      for (const [rule, fullAtByKey] of buckets) {
        const now = scaledNow(perMinute[rule]);
        for (const [key, fullAt] of fullAtByKey) if (fullAt <= now) fullAtByKey.delete(key);
      }
    },
    size: () => [...buckets.values()].reduce((total, fullAtByKey) => total + fullAtByKey.size, 0),
  };
}
