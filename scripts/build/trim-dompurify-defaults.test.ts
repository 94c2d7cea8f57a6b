import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkDomPurifyListReads, checkDomPurifyUse } from './trim-dompurify-defaults.ts';
import {
  DROPPED_DOMPURIFY_METHODS,
  dropUnusedDomPurifyMethods,
  NAMESPACE_DOMPURIFY_LISTS,
  trimDomPurifyLists,
} from './trim-dompurify-lists.ts';
import { ALLOWED_TAGS } from '../../src/ui/markdown/sanitize-html.ts';

const USER = '/repo/src/ui/markdown/sanitize-html.ts';
const readRepoFile = (path: string): Promise<string> => readFile(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const readDomPurify = (): Promise<string> => readFile(fileURLToPath(import.meta.resolve('dompurify')), 'utf8');

/** A miniature of DOMPurify's shape: the lists, the two default sets, USE_PROFILES and the fallbacks. */
const SHAPE = [
  'const html$1 = freeze(["a", "b"]);',
  'const html = freeze(["href"]);',
  'const svg = freeze(["r"]);',
  'const mathMl = freeze(["dir"]);',
  'const xml = freeze([\n\t"xlink:href"\n]);',
  'const svg$1 = freeze(["svg", "a"]);',
  'const svgFilters = freeze(["feblend"]);',
  'const svgDisallowed = freeze(["animate"]);',
  'const mathMl$1 = freeze(["math"]);',
  'const mathMlDisallowed = freeze(["maction"]);',
  'function createDOMPurify() {',
  '  const policy = { createHTML(html) { return html; } };',
  '  const DEFAULT_ALLOWED_TAGS = addToSet({}, [...html$1, ...svg$1, ...svgFilters, ...mathMl$1, ...text]);',
  '  const DEFAULT_ALLOWED_ATTR = addToSet({}, [...html, ...svg, ...mathMl, ...xml]);',
  '  const parse = (cfg) => {',
  '    ALLOWED_TAGS = _resolveSetOption(cfg, "ALLOWED_TAGS", DEFAULT_ALLOWED_TAGS, {});',
  '    ALLOWED_ATTR = _resolveSetOption(cfg, "ALLOWED_ATTR", DEFAULT_ALLOWED_ATTR, {});',
  '    if (USE_PROFILES.html === true) { addToSet(ALLOWED_TAGS, html$1); addToSet(ALLOWED_ATTR, html); }',
  '    if (ALLOWED_ATTR === DEFAULT_ALLOWED_ATTR) ALLOWED_ATTR = cloneSet(ALLOWED_ATTR);',
  '    return USE_PROFILES.svg;',
  '  };',
  '  ALLOWED_TAGS = _forkSharedAllowlist(hooks, ALLOWED_TAGS, DEFAULT_ALLOWED_TAGS, null);',
  '  const ALL_SVG_TAGS = addToSet({}, [...svg$1, ...svgFilters, ...svgDisallowed]);',
  '  const ALL_MATHML_TAGS = addToSet({}, [...mathMl$1, ...mathMlDisallowed]);',
  '  const _checkSvgNamespace = function (tagName) { return Boolean(ALL_SVG_TAGS[tagName]); };',
  '  const _checkHtmlNamespace = function (tagName) { return !ALL_MATHML_TAGS[tagName] && !ALL_SVG_TAGS[tagName]; };',
  '}',
].join('\n');

describe('trimDomPurifyLists', () => {
  test('empties the five default-only and the five SVG and MathML element lists, and leaves every other byte as it was', () => {
    expect(trimDomPurifyLists(SHAPE)).toBe(
      SHAPE.replace('freeze(["a", "b"])', 'freeze([])')
        .replace('freeze(["href"])', 'freeze([])')
        .replace('freeze(["r"])', 'freeze([])')
        .replace('freeze(["dir"])', 'freeze([])')
        .replace('freeze([\n\t"xlink:href"\n])', 'freeze([])')
        .replace('freeze(["svg", "a"])', 'freeze([])')
        .replace('freeze(["feblend"])', 'freeze([])')
        .replace('freeze(["animate"])', 'freeze([])')
        .replace('freeze(["math"])', 'freeze([])')
        .replace('freeze(["maction"])', 'freeze([])'),
    );
  });

  test('refuses a DOMPurify whose list is missing or no longer a frozen array of strings', () => {
    expect(trimDomPurifyLists(SHAPE.replace('const svg = freeze(["r"]);', ''))).toEqual({
      error: 'purify.es.mjs no longer declares svg once as const svg = freeze([...strings])',
    });
    expect(trimDomPurifyLists(SHAPE.replace('freeze(["r"])', 'freeze(["r", other])'))).toEqual({
      error: 'purify.es.mjs no longer declares svg once as const svg = freeze([...strings])',
    });
  });

  test('changes only the ten list declarations of the installed DOMPurify', async () => {
    const code = await readDomPurify();
    const trimmed = trimDomPurifyLists(code);
    if (typeof trimmed !== 'string') throw new Error(trimmed.error);
    const withoutLists = (text: string): string =>
      text.replace(
        /^const (?:html\$1|html|svg|mathMl|xml|svg\$1|svgFilters|svgDisallowed|mathMl\$1|mathMlDisallowed) = [^;]*;$/gm,
        '',
      );
    expect(withoutLists(trimmed)).toBe(withoutLists(code));
    expect(code.length - trimmed.length).toBeGreaterThan(5_000);
  });
});

describe('checkDomPurifyListReads', () => {
  test('accepts the expected reads, in the miniature and in the installed DOMPurify', async () => {
    expect(checkDomPurifyListReads(SHAPE)).toBeNull();
    expect(checkDomPurifyListReads(await readDomPurify())).toBeNull();
  });

  test('refuses a trimmed list read outside the default sets and USE_PROFILES', () => {
    expect(checkDomPurifyListReads(`${SHAPE}\nconst ALL = addToSet({}, [...svg]);`)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: svg is read outside the default sets and USE_PROFILES',
    );
  });

  test('refuses an SVG or MathML list read outside the sets, and a namespace set read other than by tag name', () => {
    expect(checkDomPurifyListReads(`${SHAPE}\nconst more = [...svgFilters];`)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: svgFilters is read outside the default sets, the namespace sets and USE_PROFILES',
    );
    const keys = SHAPE.replace('Boolean(ALL_SVG_TAGS[tagName])', 'Object.keys(ALL_SVG_TAGS).length > 0');
    expect(checkDomPurifyListReads(keys)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: ALL_SVG_TAGS is read other than as ALL_SVG_TAGS[tagName] in the namespace check',
    );
    expect(checkDomPurifyListReads(`${SHAPE}\nfunction f(tagName) { return ALL_MATHML_TAGS[tagName]; }`)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: ALL_MATHML_TAGS is read other than as ALL_MATHML_TAGS[tagName] in the namespace check',
    );
  });

  test("the widget's ALLOWED_TAGS name no SVG or MathML element but a, which the namespace check treats as HTML too", async () => {
    const source = await readDomPurify();
    const names = NAMESPACE_DOMPURIFY_LISTS.flatMap((list) => {
      const body = new RegExp(`^const ${list.replace('$', '\\$')} = freeze\\(\\[([^\\]]*)\\]\\);$`, 'm').exec(
        source,
      )?.[1];
      return [...(body ?? '').matchAll(/"([^"]+)"/g)].map((match) => match[1]);
    });
    expect(names.length).toBeGreaterThan(100);
    expect(ALLOWED_TAGS.filter((tag) => names.includes(tag))).toEqual(['a']);
    expect(source).toMatch(
      /const COMMON_SVG_AND_HTML_ELEMENTS = addToSet\(\{\}, \[\s*"title",\s*"style",\s*"font",\s*"a",/,
    );
  });

  test('refuses a default set used as anything but a fallback or an identity test', () => {
    const shape = SHAPE.replace('return USE_PROFILES.svg;', 'return DEFAULT_ALLOWED_ATTR[name];');
    expect(checkDomPurifyListReads(shape)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: DEFAULT_ALLOWED_ATTR is used other than as the ALLOWED_ATTR fallback or in an identity test',
    );
    const swapped = SHAPE.replace('"ALLOWED_ATTR", DEFAULT_ALLOWED_ATTR', '"FORBID_ATTR", DEFAULT_ALLOWED_ATTR');
    expect(checkDomPurifyListReads(swapped)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: DEFAULT_ALLOWED_ATTR is used other than as the ALLOWED_ATTR fallback or in an identity test',
    );
  });

  test('refuses a second declaration of a watched name', () => {
    expect(checkDomPurifyListReads(`${SHAPE}\nfunction f() { let xml = 1; return xml; }`)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: xml is read outside the default sets and USE_PROFILES',
    );
    expect(checkDomPurifyListReads(`${SHAPE}\nfunction f() { let xml; }`)).toBe(
      'purify.es.mjs reads its default lists in an unexpected way: xml is declared 2 times, not once',
    );
  });
});

describe('checkDomPurifyUse', () => {
  test("accepts the widget's sanitize-html.ts as it is", async () => {
    expect(checkDomPurifyUse(await readRepoFile('../../src/ui/markdown/sanitize-html.ts'), USER)).toBeNull();
  });

  test('refuses DOMPurify in any other module', () => {
    expect(checkDomPurifyUse("import DOMPurify from 'dompurify';\n", '/repo/src/ui/x.ts')).toBe(
      '/repo/src/ui/x.ts imports DOMPurify; only /src/ui/markdown/sanitize-html.ts may',
    );
    expect(checkDomPurifyUse("import type { Config } from 'dompurify';\n", '/repo/src/ui/x.ts')).toBeNull();
  });

  test('refuses a config that leans on the defaults or extends them', async () => {
    const source = await readRepoFile('../../src/ui/markdown/sanitize-html.ts');
    expect(checkDomPurifyUse(source.replace("ALLOWED_ATTR: ['href'", "FORBID_ATTR: ['href'"), USER)).toBe(
      '/src/ui/markdown/sanitize-html.ts no longer passes ALLOWED_ATTR in its DOMPurify config',
    );
    expect(
      checkDomPurifyUse(source.replace('ALLOWED_TAGS,', 'ALLOWED_TAGS, USE_PROFILES: { html: true },'), USER),
    ).toBe("/src/ui/markdown/sanitize-html.ts uses DOMPurify's USE_PROFILES");
    expect(checkDomPurifyUse(`${source}\npurifier.isValidAttribute('a', 'href', 'x');\n`, USER)).toBe(
      "/src/ui/markdown/sanitize-html.ts uses DOMPurify's isValidAttribute()",
    );
  });
});

describe('dropUnusedDomPurifyMethods', () => {
  test('cuts exactly the methods the widget never calls and leaves sanitize and addHook', async () => {
    const source = await readDomPurify();
    const trimmed = dropUnusedDomPurifyMethods(source);
    if (typeof trimmed !== 'string') throw new Error(trimmed.error);
    const assigned = (code: string) => [...code.matchAll(/^\tDOMPurify\.(\w+) = /gm)].map((match) => match[1]);
    expect(assigned(source).filter((name) => !assigned(trimmed).includes(name))).toEqual([
      ...DROPPED_DOMPURIFY_METHODS,
    ]);
    expect(assigned(trimmed)).toEqual(expect.arrayContaining(['sanitize', 'addHook']));
    expect(trimmed).toContain('\treturn DOMPurify;\n}');
  });

  test('refuses a DOMPurify whose methods changed shape, and a widget that calls a dropped one', async () => {
    const source = await readDomPurify();
    expect(
      dropUnusedDomPurifyMethods(
        source.replace('\tDOMPurify.clearConfig = function', '\tDOMPurify.clearConfig = () =>'),
      ),
    ).toEqual({
      error: 'purify.es.mjs no longer assigns DOMPurify.clearConfig = function once',
    });
    const user = await readRepoFile('../../src/ui/markdown/sanitize-html.ts');
    expect(checkDomPurifyUse(`${user}\npurifier.removeHooks('uponSanitizeElement');\n`, USER)).toBe(
      "/src/ui/markdown/sanitize-html.ts uses DOMPurify's removeHooks()",
    );
  });
});
