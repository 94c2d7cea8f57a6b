import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cutNameChecks } from './cut-dompurify-name-checks.ts';

const readDomPurify = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../node_modules/dompurify/dist/purify.es.mjs', import.meta.url)), 'utf8');

describe('cutNameChecks', () => {
  test('cuts every trace of CUSTOM_ELEMENT_HANDLING, ADD_TAGS and ADD_ATTR from the installed DOMPurify and keeps the allow-list checks', async () => {
    const source = await readDomPurify();
    const cut = cutNameChecks(source);
    if (typeof cut !== 'string') throw new Error(cut.error);
    const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '');
    for (const gone of [
      'CUSTOM_ELEMENT_HANDLING',
      'EXTRA_ELEMENT_HANDLING',
      'cfg.ADD_TAGS',
      'cfg.ADD_ATTR',
      '_matchesNameCheck',
      '_isBasicCustomElement',
    ]) {
      expect(code(source)).toContain(gone);
      expect(code(cut)).not.toContain(gone);
    }
    expect(cut).toContain(
      'if (((FORBID_TAGS[tagName] || !ALLOWED_TAGS[tagName])) && _sanitizeDisallowedNode(currentNode, tagName, root)) return true;',
    );
    expect(cut).toContain('const nameIsPermitted = (ALLOWED_ATTR[lcName]);');
    expect(cut).toContain('if (!nameIsPermitted) return (false);');
  });

  test('refuses a DOMPurify whose checks changed shape, or that uses a cut name elsewhere', async () => {
    const source = await readDomPurify();
    expect(cutNameChecks(source.replace('seal(CUSTOM_ELEMENT_HANDLING);', 'freeze(CUSTOM_ELEMENT_HANDLING);'))).toEqual(
      {
        error: 'purify.es.mjs no longer has once: seal(CUSTOM_ELEMENT_HANDLING);',
      },
    );
    expect(
      cutNameChecks(
        source.replace(
          '\tDOMPurify.addHook = function',
          '\tDOMPurify.checks = CUSTOM_ELEMENT_HANDLING;\n\tDOMPurify.addHook = function',
        ),
      ),
    ).toEqual({
      error: 'purify.es.mjs still uses CUSTOM_ELEMENT_HANDLING besides what is cut',
    });
    expect(
      cutNameChecks(
        source.replace('\tlet CUSTOM_ELEMENT_HANDLING = null;', '\tlet CUSTOM_ELEMENT_HANDLING = null, OTHER = 1;'),
      ),
    ).toEqual({
      error: 'createDOMPurify no longer declares CUSTOM_ELEMENT_HANDLING once on its own',
    });
  });
});
