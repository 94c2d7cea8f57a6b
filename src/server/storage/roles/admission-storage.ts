import type { RateDecision } from '../../limits/rate-limiter.ts';

/**
 * The admission counters every process shares (both optional: without them each process limits
 * and counts on its own).
 */
export interface AdmissionStorage {
  /**
   * Counts one request against a rate bucket shared by every process (optional: without it each
   * process limits on its own). Same algorithm and answers as `createRateLimiter`: a burst of
   * `perMinute`, then one every `60 s / perMinute`; a refused request is not counted.
   */
  takeRate?(request: { bucket: string; perMinute: number; now: number }): Promise<RateDecision>;
  /**
   * How many of the subject's runs have not ended, whichever process produces them (optional:
   * without it each process counts the runs it produces against `maxActiveRuns`).
   */
  countActiveRuns?(subjectId: string): Promise<number>;
}
