/**
 * Picks the text for `locale` from per-locale texts (keys are BCP 47 tags): the exact tag
 * (case-insensitive), else the first key with the same language (`zh` for `zh-CN`, `zh-CN` for
 * `zh`), else undefined.
 */
export function pickLocalized(texts: Readonly<Record<string, string>>, locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  const wanted = locale.toLowerCase();
  const language = wanted.split('-')[0];
  const keys = Object.keys(texts);
  const key =
    keys.find((candidate) => candidate.toLowerCase() === wanted) ??
    keys.find((candidate) => candidate.toLowerCase().split('-')[0] === language);
  return key === undefined ? undefined : texts[key];
}
