/**
 * DOMPurify's built-in lists that only fill its default allow-lists and `USE_PROFILES`: the HTML
 * element names (`html$1`) and the HTML, SVG, MathML and XML attribute names.
 */
export const DEFAULT_ONLY_DOMPURIFY_LISTS = ['html$1', 'html', 'svg', 'mathMl', 'xml'] as const;

/**
 * DOMPurify's SVG and MathML element lists. Besides the default allow-list and `USE_PROFILES`
 * they only fill `ALL_SVG_TAGS` and `ALL_MATHML_TAGS`, which the namespace check looks names up
 * in. Under the widget's config that lookup decides nothing an emptied list makes more lenient:
 * a disallowed name is removed before the namespace check, the widget's `ALLOWED_TAGS` hold no
 * SVG or MathML name but `a`, which the check treats as HTML too (so HTML elements check the same), and an allowed name in the SVG or
 * MathML namespace is then refused where it was accepted (less, never more).
 */
export const NAMESPACE_DOMPURIFY_LISTS = [
  'svg$1',
  'svgFilters',
  'svgDisallowed',
  'mathMl$1',
  'mathMlDisallowed',
] as const;

/** Every list the IIFE empties. */
export const TRIMMED_DOMPURIFY_LISTS = [...DEFAULT_ONLY_DOMPURIFY_LISTS, ...NAMESPACE_DOMPURIFY_LISTS] as const;

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

/**
 * DOMPurify's public methods the widget never calls: it configures every `sanitize` call itself
 * and only adds hooks, so `setConfig`, `clearConfig`, `isValidAttribute` and the hook removers
 * are dead weight on the instance (where the bundler cannot see that they are unused).
 */
export const DROPPED_DOMPURIFY_METHODS = [
  'setConfig',
  'clearConfig',
  'isValidAttribute',
  'removeHook',
  'removeHooks',
  'removeAllHooks',
] as const;

/**
 * Cuts each method of {@link DROPPED_DOMPURIFY_METHODS} from the text of `purify.es.mjs`: the
 * statement `\tDOMPurify.<name> = function…` up to the next `\tDOMPurify.… = ` or
 * `\treturn DOMPurify;`, which must end with `\t};`. Returns `{ error }` when a method is not
 * assigned exactly once in that shape. Pure string work, so browser tests can run it too.
 */
export function dropUnusedDomPurifyMethods(code: string): string | { error: string } {
  let trimmed = code;
  for (const name of DROPPED_DOMPURIFY_METHODS) {
    const start = new RegExp(`^\\tDOMPurify\\.${name} = function\\b`, 'gm');
    const starts = [...trimmed.matchAll(start)];
    const first = starts[0];
    if (starts.length !== 1 || first === undefined) {
      return { error: `purify.es.mjs no longer assigns DOMPurify.${name} = function once` };
    }
    const rest = trimmed.slice(first.index);
    const next = /\n\t(?:DOMPurify\.\w+ = |return DOMPurify;)/.exec(rest.slice(1));
    const body = next === null ? '' : rest.slice(0, next.index + 1);
    if (!/\n\t\};$/.test(body)) return { error: `purify.es.mjs's DOMPurify.${name} no longer ends with \\t};` };
    trimmed = trimmed.slice(0, first.index) + trimmed.slice(first.index + body.length + 1);
  }
  return trimmed;
}
