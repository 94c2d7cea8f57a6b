/**
 * Says when an approval expires relative to `nowMs`, in `locale` ("in 14 minutes", "in 30
 * seconds"; minutes from two minutes on, rounded up); empty without a valid `expiresAt`.
 */
export function formatExpiresIn(expiresAt: string | undefined, nowMs: number, locale: string): string {
  const expiresMs = expiresAt ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(expiresMs)) return '';
  const seconds = Math.max(0, Math.ceil((expiresMs - nowMs) / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  return seconds < 120 ? format.format(seconds, 'second') : format.format(Math.ceil(seconds / 60), 'minute');
}
