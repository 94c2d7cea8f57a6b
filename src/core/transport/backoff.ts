/** Tuning of {@link computeBackoffDelay}. */
export interface BackoffOptions {
  /** The ceiling of the first retry's delay, in ms (default 500). */
  baseMs?: number;
  /** The largest ceiling, in ms (default 30 000). */
  capMs?: number;
  /** A uniform number in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/** Default ceiling of the first retry's delay. */
export const DEFAULT_BACKOFF_BASE_MS = 500;
/** Default largest delay ceiling. */
export const DEFAULT_BACKOFF_CAP_MS = 30_000;

/**
 * Computes the full-jitter delay before retry number `attempt` (0 for the first retry):
 * `floor(random() * min(capMs, baseMs * 2 ** attempt))`, so it lies in `[0, ceiling)`.
 */
export function computeBackoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const { baseMs = DEFAULT_BACKOFF_BASE_MS, capMs = DEFAULT_BACKOFF_CAP_MS, random = Math.random } = options;
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}
