import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkLitPropertyTypes, foldDefaultConverter } from './fold-lit-default-converter.ts';

const readReactiveElement = (): Promise<string> =>
  readFile(
    fileURLToPath(new URL('../../node_modules/@lit/reactive-element/reactive-element.js', import.meta.url)),
    'utf8',
  );
const readRepoFile = (path: string): Promise<string> =>
  readFile(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

describe('foldDefaultConverter', () => {
  test("replaces Lit's default converter with one that passes strings through and maps booleans to presence, and keeps the rest", async () => {
    const source = await readReactiveElement();
    const folded = foldDefaultConverter(source);
    if (typeof folded !== 'string') throw new Error(folded.error);
    for (const gone of ['JSON.stringify', 'JSON.parse', 'case Number:', 'case Object:']) {
      expect(source).toContain(gone);
      expect(folded).not.toContain(gone);
    }
    expect(folded).toMatch(
      /[\w$]+=\{toAttribute:\(([\w$]+),([\w$]+)\)=>\2===Boolean\?\1\?[\w$]+:null:\1,fromAttribute:\(\1,\2\)=>\2===Boolean\?null!==\1:\1\}/,
    );
    expect(folded.length).toBeLessThan(source.length);
    expect(folded.replace(/[\w$]+=\{toAttribute:\([^)]*\)=>[^,]*,fromAttribute:\([^)]*\)=>[^}]*\}/, '')).toBe(
      source.replace(/[\w$]+=\{toAttribute\(.*?return ([\w$]+)\}\}/, ''),
    );
  });

  test('refuses a reactive-element.js whose converter changed shape', async () => {
    const source = await readReactiveElement();
    expect(foldDefaultConverter(source.replace('case Number:', 'case BigInt:'))).toEqual({
      error: "@lit/reactive-element's reactive-element.js has 0 copies of the default converter, not 1",
    });
  });
});

describe('checkLitPropertyTypes', () => {
  test("accepts the widget's elements as they are", async () => {
    for (const path of ['src/ui/agent-chat/agent-chat.ts', 'src/ui/conversations/conversations-panel.ts']) {
      const code = await readRepoFile(path);
      expect(code).toMatch(/static override properties = \{/);
      expect(checkLitPropertyTypes(code, `/repo/${path}`)).toBeNull();
    }
  });

  test('refuses a property of another type, its own converter, or properties declared another way', () => {
    const element = (options: string): string =>
      `class A extends LitElement {\n  static override properties = { size: ${options}, theme: { reflect: true } };\n}\n`;
    expect(checkLitPropertyTypes(element('{ type: String, reflect: true }'), '/repo/src/a.ts')).toBeNull();
    expect(checkLitPropertyTypes(element('{ type: Boolean, reflect: true }'), '/repo/src/a.ts')).toBeNull();
    expect(checkLitPropertyTypes(element('{ type: Number }'), '/repo/src/a.ts')).toBe(
      '/repo/src/a.ts declares a property of a type other than String or Boolean',
    );
    expect(checkLitPropertyTypes(element('{ converter: { fromAttribute: Number } }'), '/repo/src/a.ts')).toBe(
      '/repo/src/a.ts gives a property its own converter',
    );
    expect(
      checkLitPropertyTypes('class A extends LitElement { static get properties() { return {}; } }', '/repo/src/a.ts'),
    ).toBe('/repo/src/a.ts declares reactive properties other than with static properties = { … }');
  });
});
