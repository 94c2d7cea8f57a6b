import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as marked from 'marked';
import { generateMarkdown } from '../../bench/support/generate-markdown.ts';
import { dropUnusedOtherRules } from './drop-unused-marked-other-rules.ts';
import { cutMarkedGlobalInstance } from './iife-plugins.ts';
import { dropUnusedMarkedRules, foldMarkedOptionReads } from './inline-marked-options.ts';

/** marked's text as the IIFE's transforms before this one leave it: global instance cut, options folded. */
async function readFoldedMarked(): Promise<string> {
  const code = await readFile(fileURLToPath(import.meta.resolve('marked')), 'utf8');
  const steps = [cutMarkedGlobalInstance, foldMarkedOptionReads, dropUnusedMarkedRules];
  return steps.reduce((text, step) => {
    const next = step(text);
    if (typeof next !== 'string') throw new Error(next.error);
    return next;
  }, code);
}

/** The keys of the object literal that follows `name={` in `code`. */
function keysOf(code: string, name: string): string[] {
  const start = code.indexOf(`${name}={`);
  const body = code.slice(start, code.indexOf('},', start));
  return [...body.matchAll(/[{,]([A-Za-z]+):/g)].map((match) => match[1] ?? '');
}

/** Markdown that exercises the other rules: tabs, blank lines, CRLF, entities, pipes, tasks, HTML. */
const RULE_SENSITIVE_MARKDOWN = [
  '\tcode with a tab\n\n  - item\n\t- nested\n\n1. one\r\n2. two\r\n',
  '| a \\| b | c |\n|:-|-:|\n| `x|y` | &amp; &#65; &#x42; |\n\n- [ ] task\n- [x] done',
  '<pre>\n  raw\n</pre>\n\n<a href="x">link</a> <kbd>k</kbd>\n\n> quote\n>\tlazy',
  '```\n  fenced\n```\n\n   ```js\n   indented fence\n   ```\n\n# Heading #\n\nSetext\n---',
  '[label]: <https://example.com/a b> "t"\n\n[label] ![i](<x y.png>) https://x.y/?a=(b) www.example.com',
];

describe('dropUnusedOtherRules', () => {
  test('drops exactly the other rules that the parser, the renderers and the pedantic branches read', async () => {
    const folded = await readFoldedMarked();
    const trimmed = dropUnusedOtherRules(folded);
    if (typeof trimmed !== 'string') throw new Error(trimmed.error);
    const kept = new Set(keysOf(trimmed, 'O'));
    expect(keysOf(folded, 'O').filter((key) => !kept.has(key))).toEqual([
      'outputLinkReplace',
      'listReplaceNesting',
      'pedanticHrefTitle',
      'escapeTest',
      'escapeReplace',
      'escapeTestNoEncode',
      'escapeReplaceNoEncode',
      'percentDecode',
      'spaceLine',
      'notSpaceStart',
      'endingNewline',
      'pedanticHeadingBeginRegex',
    ]);
  });

  test('lexes exactly like marked itself once the unused rules are gone', async () => {
    const trimmed = dropUnusedOtherRules(await readFoldedMarked());
    if (typeof trimmed !== 'string') throw new Error(trimmed.error);
    const trimmedMarked = (await import(
      /* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(trimmed).toString('base64')}`
    )) as typeof marked;
    const inputs = [
      ...RULE_SENSITIVE_MARKDOWN,
      ...[1, 2, 3, 4, 5, 6].map((seed) => generateMarkdown({ length: 6_000, seed })),
    ];
    for (const input of inputs) {
      expect(new trimmedMarked.Lexer(trimmedMarked.getDefaults()).lex(input), input).toEqual(
        new marked.Lexer(marked.getDefaults()).lex(input),
      );
    }
  });

  test('refuses a table read by a computed key or handed on, and a marked without the two exports', () => {
    const shape = (body: string): string =>
      `var O={a:/a/,b:/b/,c:/c/};function f(){return O.a}var L=class{constructor(){this.r={other:O}}x(){return this.r.other.b}};${body}export{L as Lexer,f as getDefaults};`;
    expect(dropUnusedOtherRules(shape(''))).toBe(
      'var O={a:/a/,b:/b/};function f(){return O.a}var L=class{constructor(){this.r={other:O}}x(){return this.r.other.b}};export{L as Lexer,f as getDefaults};',
    );
    expect(dropUnusedOtherRules(shape('function g(k){return O[k]}g("c");'))).toEqual({
      error: 'marked.esm.js uses its other rule table O other than as O.entry',
    });
    expect(dropUnusedOtherRules(shape('console.log(O);'))).toEqual({
      error: 'marked.esm.js uses its other rule table O other than as O.entry',
    });
    expect(dropUnusedOtherRules(shape('').replace('f as getDefaults', 'f as defaults'))).toEqual({
      error: 'marked.esm.js no longer exports Lexer and getDefaults',
    });
  });
});
