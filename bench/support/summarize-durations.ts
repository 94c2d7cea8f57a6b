/** Order statistics of a list of durations in milliseconds. */
export interface DurationSummary {
  count: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Summarizes durations with nearest-rank percentiles (p50, p90, p99), total and maximum. */
export function summarizeDurations(durations: readonly number[]): DurationSummary {
  const sorted = [...durations].sort((a, b) => a - b);
  const rank = (fraction: number): number => sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
  return {
    count: sorted.length,
    total: sorted.reduce((sum, value) => sum + value, 0),
    p50: rank(0.5),
    p90: rank(0.9),
    p99: rank(0.99),
    max: sorted.at(-1) ?? 0,
  };
}
