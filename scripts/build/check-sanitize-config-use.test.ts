import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkSanitizeConfigUse } from './check-sanitize-config-use.ts';

const USER = '/repo/src/ui/markdown/sanitize-html.ts';
const readSanitizer = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../src/ui/markdown/sanitize-html.ts', import.meta.url)), 'utf8');

describe('checkSanitizeConfigUse', () => {
  test("accepts the widget's sanitize-html.ts as it is, and modules that do not name the config", async () => {
    expect(checkSanitizeConfigUse(await readSanitizer(), USER)).toBeNull();
    expect(
      checkSanitizeConfigUse("import { sanitizeHtml } from './sanitize-html.ts';\n", '/repo/src/ui/x.ts'),
    ).toBeNull();
  });

  test('refuses an option the fold reads as absent, or a fixed option with another value', async () => {
    const source = await readSanitizer();
    expect(
      checkSanitizeConfigUse(
        source.replace('  RETURN_DOM_FRAGMENT: true,', '  RETURN_DOM_FRAGMENT: true,\n  SAFE_FOR_TEMPLATES: true,'),
        USER,
      ),
    ).toBe(
      "/src/ui/markdown/sanitize-html.ts's SANITIZE_CONFIG sets SAFE_FOR_TEMPLATES: true, which the IIFE's DOMPurify does not read",
    );
    expect(checkSanitizeConfigUse(source.replace('ALLOW_DATA_ATTR: false', 'ALLOW_DATA_ATTR: true'), USER)).toBe(
      "/src/ui/markdown/sanitize-html.ts's SANITIZE_CONFIG must set ALLOW_DATA_ATTR: false",
    );
    expect(checkSanitizeConfigUse(source.replace('  ALLOW_UNKNOWN_PROTOCOLS: false,\n', ''), USER)).toBe(
      "/src/ui/markdown/sanitize-html.ts's SANITIZE_CONFIG must set ALLOW_UNKNOWN_PROTOCOLS",
    );
  });

  test('refuses another config passed to sanitize(), a second call, or the config used elsewhere', async () => {
    const source = await readSanitizer();
    expect(
      checkSanitizeConfigUse(
        source.replace(
          'TRUSTED_TYPES_POLICY: trustedTypesPolicy }',
          'TRUSTED_TYPES_POLICY: trustedTypesPolicy, IN_PLACE: true }',
        ),
        USER,
      ),
    ).toBe(
      '/src/ui/markdown/sanitize-html.ts must pass sanitize() SANITIZE_CONFIG or { ...SANITIZE_CONFIG, TRUSTED_TYPES_POLICY }',
    );
    expect(
      checkSanitizeConfigUse(
        `${source}\nexport const again = (html: string) => getPurifier().sanitize(html, SANITIZE_CONFIG);\n`,
        USER,
      ),
    ).toBe('/src/ui/markdown/sanitize-html.ts must call sanitize(html, config) exactly once');
    expect(
      checkSanitizeConfigUse(source.replace('sanitizeHtml(html: string)', 'sanitizeHtml(html: string | Node)'), USER),
    ).toBe('/src/ui/markdown/sanitize-html.ts must pass sanitize() a string parameter of its caller as the input');
    expect(checkSanitizeConfigUse(`${source}\nSANITIZE_CONFIG.ALLOWED_TAGS.push('img');\n`, USER)).toBe(
      '/src/ui/markdown/sanitize-html.ts must use SANITIZE_CONFIG only in its sanitize() call',
    );
    expect(checkSanitizeConfigUse("import { SANITIZE_CONFIG } from './sanitize-html.ts';\n", '/repo/src/ui/x.ts')).toBe(
      '/repo/src/ui/x.ts uses SANITIZE_CONFIG; only /src/ui/markdown/sanitize-html.ts may',
    );
  });
});
