/**
 * The `src` a widget image may use, or undefined: an absolute https URL without credentials whose
 * origin is one the server allows (bootstrap `capabilities.widgets.imageOrigins`). The server
 * checks the same before a widget enters the log; the page checks again, as for any link.
 */
export function checkWidgetImage(src: unknown, allowedOrigins: readonly string[]): string | undefined {
  if (typeof src !== 'string' || src.length > 2_048) return undefined;
  try {
    const url = new URL(src);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined;
    return allowedOrigins.includes(url.origin) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
