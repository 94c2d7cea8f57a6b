import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as marked from 'marked';
import { generateMarkdown } from '../../bench/support/generate-markdown.ts';
import { checkMarkedUse, dropUnusedMarkedRules, foldMarkedOptionReads } from './inline-marked-options.ts';

const DEFAULTS =
  'function G(){return{async:!1,breaks:!1,extensions:null,gfm:!0,hooks:null,pedantic:!1,renderer:null,silent:!1,tokenizer:null,walkTokens:null}}';
const USER = '/repo/src/ui/markdown/render-tokens-to-html.ts';
const USER_SOURCE = "import { getDefaults, Lexer } from 'marked';\nconst lexer = new Lexer(getDefaults());\n";

/** Markdown whose tokens depend on the folded options: pedantic, GFM and breaks differ on each. */
const OPTION_SENSITIVE_MARKDOWN = [
  '#Heading without a space\n\n# Heading #\n\nSetext\n===',
  '- [ ] task\n- [x] done\n\n1) first\n2) second\n\n* a\n+ b\n- c',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n\n~~gone~~ and ~single~ www.example.com https://example.com/a?b',
  'line one  \nline two\nline three\\\nline four',
  '***strong em*** __strong__ _em_ *a **b** c* snake_case_word **unclosed',
  '[ref]: https://example.com "Title"\n\n[ref] [text][ref] ![img](x.png) <https://example.com> <b>raw</b>',
  '```js\nconst a = 1;\n```\n\n    indented\n\n~~~\ntilde\n~~~\n\n> quote\n> > nested\n\n---\n',
  'a\n<div>\nblock html\n</div>\n\n<!-- comment -->\n\n[link](</with space> "t") [l](url\\(1\\))',
];

/** Random concatenations of Markdown pieces from a seeded source: many shapes, the same every run. */
function generateFragmentMixes(count: number): string[] {
  const pieces = [
    '# h',
    '##x',
    '- a',
    '  - b',
    '1. c',
    '> q',
    '```',
    '~~~',
    '    code',
    '| a |',
    '|---|',
    '**',
    '*',
    '_',
    '~~',
    '`',
    '[a](b)',
    '[a]: c',
    '<b>',
    '</b>',
    '  ',
    '\\',
    'text',
    'https://x.y',
    '\n',
    '\n\n',
    '===',
    '---',
  ];
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 4 + Math.floor(random() * 20) }, () => pieces[Math.floor(random() * pieces.length)]).join(
      random() < 0.5 ? '' : ' ',
    ),
  );
}

describe('foldMarkedOptionReads', () => {
  const shape = (body: string): string => `${DEFAULTS}${body}export{L as Lexer,G as getDefaults};\n`;
  const reads =
    'class L{lex(s){if(this.options.pedantic)s=1;if(this.options.gfm&&!this.options.breaks)s=2;' +
    'this.options.extensions?.block;return this.options.hooks?.emStrongMask??s}}';

  test('folds each option read to the value getDefaults() gives it', () => {
    expect(foldMarkedOptionReads(shape(reads))).toBe(
      shape('class L{lex(s){if(!1)s=1;if(!0&&!!1)s=2;null?.block;return null?.emStrongMask??s}}'),
    );
  });

  test('refuses a marked whose getDefaults() returns other defaults', () => {
    expect(foldMarkedOptionReads(shape(reads).replace('gfm:!0', 'gfm:!1'))).toEqual({
      error:
        "marked's getDefaults() no longer returns {async:!1,breaks:!1,extensions:null,gfm:!0,hooks:null,pedantic:!1,renderer:null,silent:!1,tokenizer:null,walkTokens:null}",
    });
  });

  test('refuses a marked that no longer reads an option the expected way', () => {
    expect(foldMarkedOptionReads(shape(reads.replace('this.options.hooks', 'e.hooks')))).toEqual({
      error: 'marked.esm.js no longer reads this.options.hooks',
    });
    expect(foldMarkedOptionReads(shape(`${reads}function t(e){return e.options.gfm}`))).toEqual({
      error: 'marked.esm.js reads the gfm option other than as this.options.gfm',
    });
  });

  test('lexes the installed marked, folded and without its unused rule sets, exactly like marked itself, on Markdown that depends on each option', async () => {
    const code = await readFile(fileURLToPath(import.meta.resolve('marked')), 'utf8');
    const options = foldMarkedOptionReads(code);
    if (typeof options !== 'string') throw new Error(options.error);
    const folded = dropUnusedMarkedRules(options);
    if (typeof folded !== 'string') throw new Error(folded.error);
    const foldedMarked = (await import(
      /* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(folded).toString('base64')}`
    )) as typeof marked;
    const inputs = [
      ...OPTION_SENSITIVE_MARKDOWN,
      ...[1, 2, 3, 4].map((seed) => generateMarkdown({ length: 6_000, seed })),
      ...generateFragmentMixes(1_000),
    ];
    for (const input of inputs) {
      const expected = new marked.Lexer(marked.getDefaults()).lex(input);
      expect(new foldedMarked.Lexer(foldedMarked.getDefaults()).lex(input), input).toEqual(expected);
    }
  });
});

describe('dropUnusedMarkedRules', () => {
  const tables =
    'const a={x:1},p=b(a),q=b(a),r=b(a),T={normal:a,gfm:a,pedantic:p},I={normal:a,gfm:a,breaks:q,pedantic:r};';
  const lexer = (test: string) =>
    `class L{x(t){${test}?(t.block=T.pedantic,t.inline=I.pedantic):t.inline=!1?I.breaks:I.gfm}}`;

  test('cuts the pedantic and breaks entries and the rule sets they name', () => {
    expect(dropUnusedMarkedRules(tables + lexer('!1'))).toBe(
      'const a={x:1},T={normal:a,gfm:a},I={normal:a,gfm:a};' + lexer('!1'),
    );
  });

  test('refuses a read of a dropped rule set in a live branch, or a rule set used elsewhere', () => {
    expect(dropUnusedMarkedRules(tables + lexer('t.p'))).toEqual({
      error: 'marked.esm.js reads T.pedantic outside a folded-away branch',
    });
    expect(dropUnusedMarkedRules(`${tables}${lexer('!1')}export{r as R};`)).toEqual({
      error: "marked's rule set r is used besides its rule table",
    });
    expect(dropUnusedMarkedRules(lexer('!1'))).toEqual({
      error: 'marked.esm.js no longer has its two rule tables {normal, gfm, …, pedantic}',
    });
  });

  test('finds both tables in the installed marked once its options are folded', async () => {
    const code = await readFile(fileURLToPath(import.meta.resolve('marked')), 'utf8');
    const folded = foldMarkedOptionReads(code);
    if (typeof folded !== 'string') throw new Error(folded.error);
    const trimmed = dropUnusedMarkedRules(folded);
    if (typeof trimmed !== 'string') throw new Error(trimmed.error);
    expect(folded.match(/\{normal:[\w$]+,gfm:[\w$]+,(?:breaks:[\w$]+,)?pedantic:[\w$]+\}/g)).toHaveLength(2);
    expect(trimmed.match(/\{normal:[\w$]+,gfm:[\w$]+\}/g)).toHaveLength(2);
    expect(trimmed).not.toMatch(/\{normal:[^}]*pedantic/);
  });
});

describe('checkMarkedUse', () => {
  test('accepts the one lexer of render-tokens-to-html.ts and type imports anywhere', () => {
    expect(checkMarkedUse(USER_SOURCE, USER)).toBeNull();
    expect(checkMarkedUse("import type { Token } from 'marked';\n", '/repo/src/ui/x.ts')).toBeNull();
  });

  test("refuses marked's values in any other module", () => {
    expect(checkMarkedUse("import { Parser } from 'marked';\n", '/repo/src/ui/x.ts')).toBe(
      "/repo/src/ui/x.ts imports marked's values; only /src/ui/markdown/render-tokens-to-html.ts may",
    );
  });

  test('refuses other imports, a second lexer, or a change to the lexer options', () => {
    expect(checkMarkedUse(USER_SOURCE.replace('Lexer }', 'Lexer, marked }'), USER)).toBe(
      "/src/ui/markdown/render-tokens-to-html.ts must import marked's values exactly as import { getDefaults, Lexer } from 'marked';",
    );
    expect(checkMarkedUse(`${USER_SOURCE}Lexer.lex('a');\n`, USER)).toBe(
      '/src/ui/markdown/render-tokens-to-html.ts must build exactly one lexer, as new Lexer(getDefaults())',
    );
    expect(checkMarkedUse(`${USER_SOURCE}lexer.options.pedantic = true;\n`, USER)).toBe(
      "/src/ui/markdown/render-tokens-to-html.ts must not touch a lexer's options",
    );
  });
});
