import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { foldAdoptedStyleSheetsTest } from './require-adopted-stylesheets.ts';

const readCssTag = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../node_modules/@lit/reactive-element/css-tag.js', import.meta.url)), 'utf8');

describe('foldAdoptedStyleSheetsTest', () => {
  test("turns Lit's feature test into true and changes nothing else", async () => {
    const source = await readCssTag();
    const folded = foldAdoptedStyleSheetsTest(source);
    if (typeof folded !== 'string') throw new Error(folded.error);
    expect(folded).not.toContain('ShadyCSS');
    const [flag] = /([\w$]+)=!0,/.exec(folded) ?? [];
    expect(flag).toBeDefined();
    expect(source.length - folded.length).toBe(
      'X.ShadowRoot&&(void 0===X.ShadyCSS||X.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype'
        .length - '!0'.length,
    );
  });

  test('refuses a css-tag.js whose feature test changed shape', async () => {
    const source = await readCssTag();
    expect(
      foldAdoptedStyleSheetsTest(
        source.replace('"replace"in CSSStyleSheet.prototype', '"replaceSync"in CSSStyleSheet.prototype'),
      ),
    ).toEqual({
      error: "@lit/reactive-element's css-tag.js no longer tests adoptedStyleSheets support once in the known form",
    });
  });
});
