import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cutMarkedGlobalInstance, minifyCss } from './iife-plugins.ts';

describe('minifyCss', () => {
  test('drops comments and insignificant whitespace but keeps descendant and pseudo selectors apart', () => {
    const css = `
      /* tokens */
      :host {
        --agent-chat-offset: 24px;
        color: var(--agent-chat-color-text);
      }
      .list :hover,
      [part='button']::after {
        margin: 0 auto;
      }
    `;
    expect(minifyCss(css)).toBe(
      ":host{--agent-chat-offset:24px;color:var(--agent-chat-color-text)}.list :hover,[part='button']::after{margin:0 auto}",
    );
  });

  test('keeps media queries and nested rules intact', () => {
    expect(minifyCss('@media (prefers-color-scheme: dark) {\n  :host(:not([theme="light"])) { color: #fff; }\n}')).toBe(
      '@media (prefers-color-scheme:dark){:host(:not([theme="light"])){color:#fff}}',
    );
  });
});

describe('cutMarkedGlobalInstance', () => {
  const shape = (tail: string): string =>
    'var L=class{};var P=class{};var M=class{};function G(){return{}}var S=G();' +
    `var v=new M;function x(a){return v.parse(a)}x.use=function(){};${tail}` +
    'export{L as Lexer,P as Parser,M as Marked,G as getDefaults,S as defaults,x as marked,L as Hooks,L as Renderer,L as TextRenderer,L as Tokenizer};\n//# sourceMappingURL=marked.esm.js.map\n';

  test('cuts from the global instance to the export and keeps only the class and default exports', () => {
    expect(cutMarkedGlobalInstance(shape(''))).toBe(
      'var L=class{};var P=class{};var M=class{};function G(){return{}}var S=G();' +
        'export{L as Hooks,L as Lexer,M as Marked,P as Parser,L as Renderer,L as TextRenderer,L as Tokenizer,S as defaults,G as getDefaults};\n',
    );
  });

  test('refuses a file where a kept export is defined after the instance', () => {
    expect(cutMarkedGlobalInstance(shape('var P=class{};'))).toEqual({
      error: 'marked.esm.js now defines Parser after its global instance',
    });
  });

  test('refuses a file that does not build its instance the expected way', () => {
    expect(cutMarkedGlobalInstance(shape('').replace('var v=new M;', 'var v=M.create();'))).toEqual({
      error: 'marked.esm.js no longer creates its global instance with `var x=new Marked;`',
    });
  });

  test('cuts the installed marked so that only its classes and defaults are exported', async () => {
    const code = await readFile(fileURLToPath(import.meta.resolve('marked')), 'utf8');
    const result = cutMarkedGlobalInstance(code);
    if (typeof result !== 'string') throw new Error(result.error);
    expect(code.startsWith(result.slice(0, result.lastIndexOf('export{')))).toBe(true);
    expect(result.slice(result.lastIndexOf('export{'))).toMatch(
      /^export\{\S+ as Hooks,\S+ as Lexer,\S+ as Marked,\S+ as Parser,\S+ as Renderer,\S+ as TextRenderer,\S+ as Tokenizer,\S+ as defaults,\S+ as getDefaults\};\n$/,
    );
    expect(result.length).toBeLessThan(code.length - 500);
  });
});

describe('cutMarkedGlobalInstance with `$` in minified names', () => {
  test('finds the instance and checks the exports when a class name holds more than one `$`', () => {
    const code =
      'var L$=class{};var $M$=class{};function G(){return{}}var S=G();var v=new $M$;function x(){}' +
      'export{L$ as Hooks,L$ as Lexer,$M$ as Marked,L$ as Parser,L$ as Renderer,L$ as TextRenderer,L$ as Tokenizer,S as defaults,G as getDefaults,x as marked};';
    expect(cutMarkedGlobalInstance(code)).toBe(
      'var L$=class{};var $M$=class{};function G(){return{}}var S=G();' +
        'export{L$ as Hooks,L$ as Lexer,$M$ as Marked,L$ as Parser,L$ as Renderer,L$ as TextRenderer,L$ as Tokenizer,S as defaults,G as getDefaults};\n',
    );
  });
});
