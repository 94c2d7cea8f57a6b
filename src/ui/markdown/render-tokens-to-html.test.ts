import { describe, expect, test } from 'vitest';
import { Parser } from 'marked';
import { lexMarkdown, renderTokensToHtml } from './render-tokens-to-html.ts';

const STRINGS = { image: 'image', truncated: 'cut' };

/** Markdown with no token the policy rewrites (no HTML, code, link, image, task or aligned cell). */
const PLAIN_MARKDOWN = [
  '# Title with *em*, **strong** and ~~del~~',
  'Setext\n======\n\nSub\n---',
  'A paragraph with & < > " \' and \\* \\_ escapes,\na soft break and a hard one  \nhere\\\nand there.',
  '> quoted\n>\n> > nested with **bold**\n> - in a list',
  '- tight\n- list\n  - nested\n  - items\n\n1. one\n2. two\n\n7) seven\n8) eight',
  '- loose\n\n- list\n\n  with two paragraphs',
  '| a | b |\n|---|---|\n| 1 | *2* |\n| 3 |\n\n| only header |\n|---|',
  '***\n\n___',
].join('\n\n');

describe('renderTokensToHtml', () => {
  test('renders every token the policy does not rewrite exactly as marked’s own renderer does', () => {
    const tokens = lexMarkdown(PLAIN_MARKDOWN);
    expect(renderTokensToHtml(tokens, STRINGS).html).toBe(new Parser().parse(lexMarkdown(PLAIN_MARKDOWN)));
  });

  test('renders a list that starts at a number other than one with its start', () => {
    expect(renderTokensToHtml(lexMarkdown('3. three\n4. four'), STRINGS).html).toBe(
      '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>\n',
    );
  });

  test('gives an image the plain text of its alt, with markup and code unwrapped, and its encoded destination', () => {
    expect(renderTokensToHtml(lexMarkdown('![a *b* `c` **d**](https://cdn.example/x.png)'), STRINGS).html).toBe(
      '<p><span class="ac-img" title="https://cdn.example/x.png">a b c d</span></p>\n',
    );
  });

  test('throws on a token type it does not know, so the caller falls back to text', () => {
    expect(() => renderTokensToHtml([{ type: 'widget', raw: 'x' }], STRINGS)).toThrow(
      'Token with "widget" type was not found.',
    );
  });
});
