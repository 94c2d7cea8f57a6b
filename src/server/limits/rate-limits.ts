import type { Clock } from '../../core/clock.ts';
import type { Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { createRateLimiter } from './rate-limiter.ts';

/** The per-identity request rates of {@link Limits} (docs/protocol.md §16.1). */
export type RateLimitName =
  'runsPerMinute' | 'inputsPerMinute' | 'interruptAnswersPerMinute' | 'cancelsPerMinute' | 'readsPerMinute';

const WHAT_IS_LIMITED: Record<RateLimitName, string> = {
  runsPerMinute: 'new messages',
  inputsPerMinute: 'messages to a running answer',
  interruptAnswersPerMinute: 'answers',
  cancelsPerMinute: 'stops',
  readsPerMinute: 'requests',
};

/** How long a create refused by `maxActiveRuns` is told to wait: runs end on their own time, so a guess. */
export const ACTIVE_RUNS_RETRY_AFTER_MS = 5_000;

/** Creates the handler's limiter with one rule per rate of `limits`. */
export function createRateLimits(limits: Limits, clock: Pick<Clock, 'now'>): RateLimiter<RateLimitName> {
  return createRateLimiter({
    clock,
    perMinute: {
      runsPerMinute: limits.runsPerMinute,
      inputsPerMinute: limits.inputsPerMinute,
      interruptAnswersPerMinute: limits.interruptAnswersPerMinute,
      cancelsPerMinute: limits.cancelsPerMinute,
      readsPerMinute: limits.readsPerMinute,
    },
  });
}

/**
 * Counts one request of `limit` for the identity, or throws `429 RATE_LIMITED` (retryable, with
 * `Retry-After`, `retryAfterMs` and `details: {limit, <limit>: n}`) when the identity is over it.
 */
export function enforceRateLimit(options: {
  limiter: RateLimiter<RateLimitName>;
  limits: Limits;
  identityId: string;
  limit: RateLimitName;
}): void {
  const { limiter, limits, identityId, limit } = options;
  const decision = limiter.take(identityId, limit);
  if (decision.isAllowed) return;
  const seconds = Math.ceil(decision.retryAfterMs / 1000);
  fail({
    code: 'RATE_LIMITED',
    detail: `Too many ${WHAT_IS_LIMITED[limit]} (at most ${limits[limit]} a minute); try again in ${seconds} s.`,
    retryAfterMs: decision.retryAfterMs,
    details: { limit, [limit]: limits[limit] },
  });
}
