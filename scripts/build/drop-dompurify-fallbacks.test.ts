import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cutDomPurifyFallbacks } from './drop-dompurify-fallbacks.ts';

const readDomPurify = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../node_modules/dompurify/dist/purify.es.mjs', import.meta.url)), 'utf8');

describe('cutDomPurifyFallbacks', () => {
  test("cuts the unused async-generator helper and the built-ins' stand-ins from the installed DOMPurify", async () => {
    const source = await readDomPurify();
    const cut = cutDomPurifyFallbacks(source);
    if (typeof cut !== 'string') throw new Error(cut.error);
    for (const gone of [
      'AsyncGenerator',
      '_OverloadYield',
      'if (!freeze)',
      'if (!seal)',
      'if (!apply)',
      'if (!construct)',
    ]) {
      expect(source).toContain(gone);
      expect(cut).not.toContain(gone);
    }
    for (const kept of ['let freeze = Object.freeze;', 'let construct = _ref.construct;', 'function _slicedToArray(']) {
      expect(cut).toContain(kept);
    }
  });

  test('refuses a DOMPurify that uses the helper, or whose fallbacks changed shape', async () => {
    const source = await readDomPurify();
    expect(cutDomPurifyFallbacks(`${source}\nnew AsyncGenerator(null);\n`)).toEqual({
      error: 'purify.es.mjs uses AsyncGenerator',
    });
    expect(
      cutDomPurifyFallbacks(source.replace('if (!seal) seal = function seal(', 'if (!seal) seal = function(')),
    ).toEqual({
      error: 'purify.es.mjs no longer has if (!seal) seal = function seal(…} once',
    });
  });
});
