import { describe, expect, it } from 'vitest';
import { highlightCode } from '../../highlight/highlight-code.ts';
import { highlightCodeBlock } from './highlight-code-block.ts';
import { renderMarkdownWithCode } from './render-markdown.ts';

/** Renders `markdown` into a container and returns it with its first code block and that block's source. */
function renderFirstBlock(markdown: string) {
  const rendered = renderMarkdownWithCode(markdown);
  const container = document.createElement('div');
  container.append(rendered.fragment);
  const pre = container.querySelector('pre.ac-code') as HTMLPreElement;
  return { container, pre, block: rendered.codeBlocks[0]! };
}

describe('highlightCodeBlock', () => {
  it('replaces the code with highlighted spans, keeping the label and the exact text', () => {
    const source = 'const a = "</span><script>alert(1)</script>"; // done';
    const { pre, block } = renderFirstBlock(`\`\`\`ts\n${source}\n\`\`\`\n`);
    highlightCodeBlock(pre, block, highlightCode);
    const code = pre.querySelector('code') as HTMLElement;
    expect(code.className).toBe('language-ts');
    expect(code.textContent).toBe(source);
    expect(pre.querySelector('.ac-code-lang')?.textContent).toBe('ts');
    expect(Array.from(code.querySelectorAll('span'), (span) => span.className)).toEqual([
      'hljs-keyword',
      'hljs-string',
      'hljs-comment',
    ]);
    expect(pre.querySelector('script')).toBe(null);
  });

  it('sends what the highlighter returns through the sanitizer', () => {
    const { pre, block } = renderFirstBlock('```ts\nx\n```\n');
    const hostile = () =>
      '<img src=x onerror="alert(1)"><span class="hljs-keyword" style="color:red" onmouseover="x">k</span>' +
      '<script>alert(2)</script><a href="javascript:alert(3)">a</a><style>*{}</style>';
    highlightCodeBlock(pre, block, hostile);
    // A link loses its script destination (inert, as the sanitizer leaves every link it refuses).
    expect(pre.querySelector('code')?.innerHTML).toBe('<span class="hljs-keyword">k</span><a>a</a>');
  });

  it('keeps hidden characters marked', () => {
    const { pre, block } = renderFirstBlock('```js\nlet a\u202E = 1\n```\n');
    highlightCodeBlock(pre, block, highlightCode);
    expect(pre.querySelector('code .ac-invisible')?.textContent).toBe('⟪U+202E⟫');
    expect(pre.querySelector('code .hljs-keyword')?.textContent).toBe('let');
  });

  it('leaves a block the highlighter cannot do as it was', () => {
    const { pre, block } = renderFirstBlock('```brainfuck\n+++.\n```\n');
    const before = pre.querySelector('code');
    highlightCodeBlock(pre, block, highlightCode);
    expect(pre.querySelector('code')).toBe(before);
    expect(before?.innerHTML).toBe('+++.');
  });

  it('never gets a hostile language name: the renderer drops it', () => {
    const { pre, block } = renderFirstBlock('```"><img src=x onerror=alert(1)>\nx\n```\n');
    expect(block.language).toBe('');
    expect(pre.querySelector('img')).toBe(null);
    expect(pre.querySelector('code')?.className).toBe('');
  });
});
