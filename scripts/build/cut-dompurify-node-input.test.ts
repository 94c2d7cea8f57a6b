import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cutNodeInput } from './cut-dompurify-node-input.ts';

const readDomPurify = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../node_modules/dompurify/dist/purify.es.mjs', import.meta.url)), 'utf8');

describe('cutNodeInput', () => {
  test("cuts the installed DOMPurify's conversion of non-strings and its branch for a node as input", async () => {
    const source = await readDomPurify();
    const cut = cutNodeInput(source);
    if (typeof cut !== 'string') throw new Error(cut.error);
    for (const gone of ['dirty = stringifyValue(dirty);', '} else if (_isNode(dirty)) {']) {
      expect(source).toContain(gone);
      expect(cut).not.toContain(gone);
    }
    expect(cut).toContain('} else if (false) {');
    expect(cut).toContain('body = _initDocument(dirty);');
  });

  test('refuses a DOMPurify whose input handling changed shape', async () => {
    const source = await readDomPurify();
    expect(cutNodeInput(source.replace('dirty = stringifyValue(dirty);', 'dirty = String(dirty);'))).toEqual({
      error: `purify.es.mjs's _sanitize no longer has once: if (typeof dirty !== "string" && !_isNode(dirty)) { dirty = stringifyValue(dirty`,
    });
    expect(cutNodeInput(source.replace('} else if (_isNode(dirty)) {', '} else if (isNode(dirty)) {'))).toEqual({
      error: "purify.es.mjs's _sanitize no longer has one branch if (_isNode(dirty))",
    });
  });
});
