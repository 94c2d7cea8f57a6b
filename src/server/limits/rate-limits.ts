import type { Clock } from '../../core/clock.ts';
import type { AttachmentLimits, BrowserToolLimits, Limits } from '../../core/protocol.ts';
import { refuse } from '../domain-error.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import type { RateDecision } from './rate-limiter.ts';
import { createRateLimiter } from './rate-limiter.ts';

/** The per-identity request rates of {@link Limits} (docs/protocol.md §16.1). */
export type RateLimitName =
  | 'runsPerMinute'
  | 'inputsPerMinute'
  | 'interruptAnswersPerMinute'
  | 'cancelsPerMinute'
  | 'readsPerMinute'
  | 'sessionChangesPerMinute'
  | 'feedbackPerMinute'
  | 'toolClaimsPerMinute'
  | 'toolReceiptsPerMinute'
  | 'executorRequestsPerMinute'
  | 'attachmentsPerMinute';

/** Every limit a handler enforces: the protocol's, the browser tools' and the attachments' (docs/protocol.md §5.8, §16, §19.6). */
export type HandlerLimits = Limits & BrowserToolLimits & AttachmentLimits;

const WHAT_IS_LIMITED: Record<RateLimitName, string> = {
  runsPerMinute: 'new messages',
  inputsPerMinute: 'messages to a running answer',
  interruptAnswersPerMinute: 'answers',
  cancelsPerMinute: 'stops',
  readsPerMinute: 'requests',
  sessionChangesPerMinute: 'changes to conversations',
  feedbackPerMinute: 'votes',
  toolClaimsPerMinute: 'tool claims',
  toolReceiptsPerMinute: 'tool receipts',
  executorRequestsPerMinute: 'executor requests',
  attachmentsPerMinute: 'files',
};

/** How long a create refused by `maxActiveRuns` is told to wait: runs end on their own time, so a guess. */
export const ACTIVE_RUNS_RETRY_AFTER_MS = 5_000;

/** The handler's per-identity request rates: in this process, or shared through the storage. */
export interface RequestRates {
  /** Counts one request of `limit` for the identity when it fits, else says how long until one fits. */
  take(identityId: string, limit: RateLimitName): Promise<RateDecision>;
  /** Forgets in-process buckets that have refilled (shared buckets expire in the storage). */
  sweep(): void;
}

/**
 * Creates the handler's rates with one rule per rate of `limits`: shared by every process through
 * `storage.takeRate` when the storage has it (Redis), else an in-memory limiter of this process.
 */
export function createRateLimits(
  limits: HandlerLimits,
  clock: Pick<Clock, 'now'>,
  storage: Pick<AgentStorage, 'takeRate'>,
): RequestRates {
  const perMinute: Record<RateLimitName, number> = {
    runsPerMinute: limits.runsPerMinute,
    inputsPerMinute: limits.inputsPerMinute,
    interruptAnswersPerMinute: limits.interruptAnswersPerMinute,
    cancelsPerMinute: limits.cancelsPerMinute,
    readsPerMinute: limits.readsPerMinute,
    sessionChangesPerMinute: limits.sessionChangesPerMinute,
    feedbackPerMinute: limits.feedbackPerMinute,
    toolClaimsPerMinute: limits.toolClaimsPerMinute,
    toolReceiptsPerMinute: limits.toolReceiptsPerMinute,
    executorRequestsPerMinute: limits.executorRequestsPerMinute,
    attachmentsPerMinute: limits.attachmentsPerMinute,
  };
  // Validates the rules (and serves every request when nothing is shared).
  const local = createRateLimiter({ clock, perMinute });
  const { takeRate } = storage;
  if (takeRate === undefined) {
    return { take: async (identityId, limit) => local.take(identityId, limit), sweep: () => local.sweep() };
  }
  return {
    async take(identityId, limit) {
      const count = perMinute[limit];
      if (count === Number.POSITIVE_INFINITY) return { isAllowed: true };
      return takeRate.call(storage, { bucket: `${limit}:${identityId}`, perMinute: count, now: clock.now() });
    },
    sweep: () => undefined,
  };
}

/**
 * Counts one request of `limit` for the identity, or throws `429 RATE_LIMITED` (retryable, with
 * `Retry-After`, `retryAfterMs` and `details: {limit, <limit>: n}`) when the identity is over it.
 */
export async function enforceRateLimit(options: {
  limiter: RequestRates;
  limits: HandlerLimits;
  identityId: string;
  limit: RateLimitName;
}): Promise<void> {
  const { limiter, limits, identityId, limit } = options;
  const decision = await limiter.take(identityId, limit);
  if (decision.isAllowed) return;
  const seconds = Math.ceil(decision.retryAfterMs / 1000);
  refuse({
    code: 'RATE_LIMITED',
    detail: `Too many ${WHAT_IS_LIMITED[limit]} (at most ${limits[limit]} a minute); try again in ${seconds} s.`,
    retryAfterMs: decision.retryAfterMs,
    details: { limit, [limit]: limits[limit] },
  });
}
