import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { FOLDED_DOMPURIFY_SETTINGS } from './dompurify-widget-settings.ts';
import { foldDomPurifySettings } from './fold-dompurify-config.ts';
import { readIifeDomPurifySource } from './read-iife-dompurify.ts';
import { trimDomPurify } from './trim-dompurify-defaults.ts';

/** A miniature of DOMPurify's shape: a setting, the option reads of _parseConfig, and a reader. */
const SHAPE = [
  'function createDOMPurify() {',
  '\tlet SAFE_FOR_TEMPLATES = false;',
  '\tlet ALLOWED_TAGS = null;',
  '\tconst _parseConfig = function _parseConfig() {',
  '\t\tlet cfg = arguments.length > 0 && arguments[0] !== void 0 ? arguments[0] : {};',
  '\t\tcfg = clone(cfg);',
  '\t\tALLOWED_TAGS = _resolveSetOption(cfg, "ALLOWED_TAGS", {}, {});',
  '\t\tFORBID_TAGS = _resolveSetOption(cfg, "FORBID_TAGS", create(null), {});',
  '\t\tSAFE_FOR_TEMPLATES = cfg.SAFE_FOR_TEMPLATES || false;',
  '\t\tif (objectHasOwnProperty(cfg, "ADD_TAGS")) addToSet(ALLOWED_TAGS, cfg.ADD_TAGS);',
  '\t\tTAGS = [cfg.ALLOW_DATA_ATTR, cfg.ALLOW_ARIA_ATTR, cfg.ALLOW_UNKNOWN_PROTOCOLS, cfg.ALLOWED_URI_REGEXP, cfg.ALLOWED_ATTR, cfg.RETURN_DOM_FRAGMENT, cfg.TRUSTED_TYPES_POLICY];',
  '\t};',
  '\tconst read = function () { return SAFE_FOR_TEMPLATES ? 1 : 2; };',
  '}',
].join('\n');

/** The miniature with every folded setting declared once and each of its known writes in a function of its own. */
const shapeWithAllSettings = (): string =>
  SHAPE.replace(
    '\tlet SAFE_FOR_TEMPLATES = false;',
    FOLDED_DOMPURIFY_SETTINGS.map(({ name }) => `\tlet ${name} = null;`).join('\n') +
      '\n' +
      FOLDED_DOMPURIFY_SETTINGS.flatMap(({ writes }) => writes)
        .map((write, index) => `\tconst write${index} = () => { ${write}; };`)
        .join('\n'),
  ).replace('\t\tSAFE_FOR_TEMPLATES = cfg.SAFE_FOR_TEMPLATES || false;\n', '');

describe('foldDomPurifySettings', () => {
  test('reads the options the widget never sets as absent and turns each setting into its constant', () => {
    const folded = foldDomPurifySettings(shapeWithAllSettings());
    if (typeof folded !== 'string') throw new Error(folded.error);
    expect(folded).toContain('\t\tALLOWED_TAGS = _resolveSetOption(cfg, "ALLOWED_TAGS", {}, {});');
    expect(folded).toContain('\t\tFORBID_TAGS = (create(null));');
    expect(folded).toContain('\t\tif ((false)) addToSet(ALLOWED_TAGS, (void 0));');
    expect(folded).toContain('cfg.ALLOW_DATA_ATTR, cfg.ALLOW_ARIA_ATTR');
    expect(folded).toContain('\tconst read = function () { return (false) ? 1 : 2; };');
    expect(folded.match(/\blet \w+/g)).toEqual(['let ALLOWED_TAGS', 'let cfg']);
    for (const { name } of FOLDED_DOMPURIFY_SETTINGS) expect(folded).not.toMatch(new RegExp(`(?<![\\w$.])${name}\\b`));
  });

  test('refuses a setting written in an unknown way, declared twice, or read before any function runs', () => {
    const shape = shapeWithAllSettings();
    expect(
      foldDomPurifySettings(
        shape.replace('const read = function () {', 'KEEP_CONTENT = 1; const read = function () {'),
      ),
    ).toEqual({
      error: 'purify.es.mjs writes KEEP_CONTENT in an unexpected way: KEEP_CONTENT = 1',
    });
    expect(
      foldDomPurifySettings(shape.replace('\tlet IN_PLACE = null;', '\tlet IN_PLACE = null;\n\tlet IN_PLACE = 1;')),
    ).toEqual({
      error: 'purify.es.mjs declares IN_PLACE 2 times, not once',
    });
    expect(foldDomPurifySettings(shape.replace('\tconst read =', '\tconst early = IN_PLACE;\n\tconst read ='))).toEqual(
      {
        error: 'purify.es.mjs reads IN_PLACE outside a function of createDOMPurify',
      },
    );
    expect(
      foldDomPurifySettings(
        shape.replace('KEEP_CONTENT = cfg.KEEP_CONTENT !== false', 'KEEP_CONTENT = cfg.KEEP_CONTENT === true'),
      ),
    ).toEqual({
      error: 'purify.es.mjs writes KEEP_CONTENT in an unexpected way: KEEP_CONTENT = cfg.KEEP_CONTENT === true',
    });
  });

  test('refuses an option read it does not know, or a widget option _parseConfig no longer reads', () => {
    const shape = shapeWithAllSettings();
    expect(foldDomPurifySettings(shape.replace('cfg = clone(cfg);', 'cfg = clone(cfg); inspect(cfg);'))).toEqual({
      error: "purify.es.mjs's _parseConfig reads cfg in an unexpected way: inspect(cfg)",
    });
    expect(foldDomPurifySettings(shape.replace(' cfg.ALLOWED_URI_REGEXP,', ''))).toEqual({
      error: "purify.es.mjs's _parseConfig no longer reads ALLOWED_URI_REGEXP",
    });
  });

  test('folds the installed DOMPurify, after its trim, leaving no folded setting behind', async () => {
    const trimmed = trimDomPurify(
      await readFile(
        fileURLToPath(new URL('../../node_modules/dompurify/dist/purify.es.mjs', import.meta.url)),
        'utf8',
      ),
    );
    if (typeof trimmed !== 'string') throw new Error(trimmed.error);
    /** createDOMPurify's code without its comments and strings, which name the options too. */
    const factoryCode = (code: string): string =>
      code
        .slice(code.indexOf('function createDOMPurify()'))
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
    const before = factoryCode(trimmed);
    const after = factoryCode(await readIifeDomPurifySource());
    for (const { name } of FOLDED_DOMPURIFY_SETTINGS) {
      const use = new RegExp(`(?<![\\w$.])${name}(?![\\w$])`);
      expect(before).toMatch(use);
      expect(after).not.toMatch(use);
    }
    // The options the widget sets that _parseConfig reads directly; the lists go through _resolveSetOption.
    expect(new Set(after.match(/\bcfg\.\w+/g))).toEqual(
      new Set(['cfg.ALLOWED_URI_REGEXP', 'cfg.TRUSTED_TYPES_POLICY']),
    );
  });
});
