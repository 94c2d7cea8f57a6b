/**
 * DOMPurify's built-in lists that only fill its default allow-lists and `USE_PROFILES`: the HTML
 * element names (`html$1`) and the HTML, SVG, MathML and XML attribute names. The SVG and MathML
 * element lists stay whole: DOMPurify's namespace check reads them on every sanitize.
 */
export const TRIMMED_DOMPURIFY_LISTS = ['html$1', 'html', 'svg', 'mathMl', 'xml'] as const;

/**
 * Empties each list of {@link TRIMMED_DOMPURIFY_LISTS} in the text of `purify.es.mjs`
 * (`const html = freeze([…]);` becomes `const html = freeze([]);`) and leaves every other byte as
 * it was. Returns `{ error }` when a list is not declared exactly once as a frozen array of strings.
 * Pure string work with no imports, so browser tests can run it too.
 */
export function trimDomPurifyLists(code: string): string | { error: string } {
  let trimmed = code;
  for (const name of TRIMMED_DOMPURIFY_LISTS) {
    const declaration = new RegExp(
      `^const ${name.replace('$', '\\$')} = freeze\\(\\[(?:\\s*"[^"\\\\]*",?)*\\s*\\]\\);$`,
      'gm',
    );
    const matches = trimmed.match(declaration) ?? [];
    if (matches.length !== 1) {
      return { error: `purify.es.mjs no longer declares ${name} once as const ${name} = freeze([...strings])` };
    }
    trimmed = trimmed.replace(declaration, `const ${name} = freeze([]);`);
  }
  return trimmed;
}
