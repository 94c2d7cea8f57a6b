import { getDefaults, Lexer } from 'marked';
import { describe, expect, test } from 'vitest';
import { MARKDOWN_MAX_DEPTH } from './nesting-capped-tokenizer.ts';
import { renderMarkdownWithCode } from './render-markdown.ts';
import { lexMarkdown } from './render-tokens-to-html.ts';
import { createStreamingMarkdown } from './streaming-markdown.ts';

/** How deep elements nest below `root` (a child of `root` is at depth 1), measured without recursion. */
function measureElementDepth(root: Node): number {
  let deepest = 0;
  const pending: Array<[Element, number]> = Array.from(root.childNodes)
    .filter((node): node is Element => node instanceof Element)
    .map((element) => [element, 1]);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [element, depth] = next;
    deepest = Math.max(deepest, depth);
    for (const child of element.children) pending.push([child, depth + 1]);
  }
  return deepest;
}

function count(text: string, marker: string): number {
  return text.split(marker).length - 1;
}

/** Markdown nested as deep as the limit lets a paragraph sit, and ordinary nesting. */
const WITHIN_LIMIT = [
  `${'> '.repeat(30)}thirty quotes`,
  `${'- '.repeat(15)}fifteen lists`,
  Array.from({ length: 15 }, (_, level) => `${'  '.repeat(level)}1. item ${level}`).join('\n'),
  `${'> - '.repeat(10)}quotes and lists`,
  '> quoted\n>\n> > nested with **bold**\n> - in a list\n>   > and a quote in it',
  // A fence's lines are code, however many `>` they start with.
  `\`\`\`\n${'> '.repeat(200)}\n\`\`\``,
];

/** The hostile inputs of issue 52 and their kin: each marker opens one container. */
const HOSTILE = [
  { name: '20,000 nested quotes with spaces', markdown: `${'> '.repeat(20_000)}x`, marker: '>', element: 'blockquote' },
  { name: '20,000 nested quotes', markdown: `${'>'.repeat(20_000)}x`, marker: '>', element: 'blockquote' },
  { name: '5,000 nested list markers', markdown: `${'- '.repeat(5_000)}x`, marker: '-', element: 'ul' },
  { name: '5,000 nested ordered markers', markdown: `${'1. '.repeat(5_000)}x`, marker: '1.', element: 'ol' },
];

describe('nesting cap', () => {
  test.each(WITHIN_LIMIT.map((markdown) => [markdown.slice(0, 40), markdown] as const))(
    'leaves nesting within the limit as marked lexes it: %s',
    (_name, markdown) => {
      expect(lexMarkdown(markdown)).toEqual(new Lexer(getDefaults()).lex(markdown));
    },
  );

  test('one quote past the limit stays text inside the thirtieth', () => {
    const rendered = renderMarkdownWithCode(`${'> '.repeat(31)}a`);
    expect(rendered.isFallback).toBe(false);
    expect(rendered.fragment.querySelectorAll('blockquote').length).toBe(30);
    expect(rendered.fragment.querySelector('blockquote:not(:has(blockquote)) > p')?.textContent).toBe('> a');
  });

  test.each(HOSTILE.map((input) => [input.name, input] as const))(
    '%s render as Markdown to the cap, bounded in depth, with every marker kept',
    (_name, { markdown, marker, element }) => {
      const rendered = renderMarkdownWithCode(markdown);
      expect(rendered.isFallback).toBe(false);
      const opened = rendered.fragment.querySelectorAll(element).length;
      expect(opened).toBeGreaterThanOrEqual(15);
      expect(measureElementDepth(rendered.fragment)).toBeLessThanOrEqual(MARKDOWN_MAX_DEPTH);
      const text = rendered.fragment.textContent ?? '';
      // Each marker either opened a container or is still on screen as text.
      expect(opened + count(text, marker)).toBe(count(markdown, marker));
      expect(text.trim().endsWith('x')).toBe(true);
    },
  );

  test('the streaming renderer, driven as the widget drives it, stays bounded and keeps every marker', () => {
    const markdown = `${'> '.repeat(20_000)}x`;
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    for (let end = 0; end < markdown.length; end += 997) stream.update(markdown.slice(0, end));
    stream.update(markdown);
    stream.finish();
    const text = container.textContent ?? '';
    // Two more levels: the renderer's chunk and tail wrappers.
    expect(measureElementDepth(container)).toBeLessThanOrEqual(MARKDOWN_MAX_DEPTH + 2);
    expect(container.querySelectorAll('blockquote').length + count(text, '>')).toBe(20_000);
    expect(text.trim().endsWith('x')).toBe(true);
  });
});
