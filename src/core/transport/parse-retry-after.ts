/**
 * Parses a `Retry-After` header value (RFC 9110 §10.2.3) into milliseconds from `nowMs`.
 *
 * Accepts delta-seconds (`"120"`) or an HTTP-date (`"Sun, 29 Nov 2026 13:40:05 GMT"`); a date in
 * the past gives `0`. Returns `null` for a missing, empty or malformed value.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (/^[0-9]+$/.test(trimmed)) return Number.parseInt(trimmed, 10) * 1000;
  // IMF-fixdate and RFC 850 dates name the weekday and end in GMT; this keeps loose Date.parse input out.
  if (!/^[A-Za-z]{3,9}, .*GMT$/.test(trimmed)) return null;
  const dateMs = Date.parse(trimmed);
  if (Number.isNaN(dateMs)) return null;
  return Math.max(0, dateMs - nowMs);
}
