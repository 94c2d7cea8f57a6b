const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * Returns the preferred locale of an `Accept-Language` value: the tag with the highest `q` (the
 * first of equals), or undefined when the value is missing or names none (`*` and malformed tags
 * are skipped). The widget sends its own locale there (docs/protocol.md §3). Runtime-neutral: the
 * caller reads the header from whatever request it has.
 */
export function readPreferredLocale(acceptLanguage: string | null | undefined): string | undefined {
  if (typeof acceptLanguage !== 'string') return undefined;
  let best: { tag: string; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.find((param) => param.trim().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.trim().slice(2));
    if (!LANGUAGE_TAG.test(tag) || !(q > 0) || (best !== undefined && q <= best.q)) continue;
    best = { tag, q };
  }
  return best?.tag;
}
