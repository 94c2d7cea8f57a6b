import { describe, expect, test } from 'vitest';
import { renderMarkdown } from './render-markdown.ts';
import { createStreamingMarkdown } from './streaming-markdown.ts';

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

/** The container's HTML with the renderer's own chunk and tail wrappers taken out. */
function unwrapped(container: HTMLElement): string {
  return Array.from(container.children, (child) =>
    child.matches('div.ac-done, div.ac-tail') ? child.innerHTML : child.outerHTML,
  ).join('');
}

/** Top-level Markdown blocks (and the text between them) in document order, across the wrappers. */
function blockNodes(container: HTMLElement): ChildNode[] {
  return Array.from(container.children).flatMap((child) => Array.from(child.childNodes));
}

/** A clock that never moves: every render costs nothing, so the budget never holds one back. */
const FROZEN = { now: () => 0 };

function streamInChunks(markdown: string, chunk: number, container = document.createElement('div')) {
  const stream = createStreamingMarkdown(container, FROZEN);
  for (let end = chunk; end < markdown.length + chunk; end += chunk) stream.update(markdown.slice(0, end));
  stream.finish();
  return { stream, container };
}

const DOCUMENTS: Array<[string, string]> = [
  ['paragraphs and heading', '# Title\n\nFirst **bold** para.\n\nSecond para with `code`.\n'],
  ['loose list across blank lines', '- a\n\n- b\n\n  continued\n\nafter\n'],
  ['ordered list that continues', '1. one\n\n2. two\n\n3. three\n\ntext'],
  ['setext heading', 'Title\n=====\n\nbody'],
  ['table grows row by row', 'intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nafter'],
  ['fence with blank lines inside', '```py\ndef f():\n\n    return 1\n```\n\nafter'],
  ['indented code across blank lines', '    one\n\n    two\n\nafter'],
  ['blockquote with lazy line', '> quoted\nlazy\n\nafter'],
  ['definition before use', '[r]: https://example.com "t"\n\nsee [x][r]\n'],
  ['definition after use', 'see [x][r]\n\nmiddle\n\n[r]: https://example.com\n\nend'],
  ['CRLF line endings', 'one\r\n\r\ntwo\r\n\r\n- a\r\n- b\r\n'],
  ['raw HTML and bad links', '<div>\n<script>x</script>\n</div>\n\n[a](javascript:alert(1)) <b>b</b>'],
];

describe('createStreamingMarkdown', () => {
  test.each(DOCUMENTS)(
    '%s: the finished stream equals the one-shot render for every chunk size',
    (_title, markdown) => {
      const expected = serialize(renderMarkdown(markdown));
      for (const chunk of [1, 2, 3, 7, 16]) expect(unwrapped(streamInChunks(markdown, chunk).container)).toBe(expected);
    },
  );

  test('finished blocks are rendered once: their nodes survive later updates untouched', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    stream.update('First para.\n\nSecond');
    expect(stream.stats).toEqual({ blocksFinalized: 0, tailRenders: 1, blocksOverBudget: 0, charactersLexed: 19 });
    stream.update('First para.\n\nSecond para.\n\nThird');
    const first = blockNodes(container)[0];
    expect(first?.textContent).toBe('First para.');
    stream.update('First para.\n\nSecond para.\n\nThird para.');
    stream.finish();
    expect(blockNodes(container)[0]).toBe(first);
    expect(stream.stats).toEqual({
      blocksFinalized: 1,
      tailRenders: 4,
      blocksOverBudget: 0,
      charactersLexed: 19 + 32 + 25 + 25,
    });
    // The container serialized: finished blocks in their chunk, the rest in the tail.
    expect(container.innerHTML).toBe(
      '<div class="ac-done"><p>First para.</p>\n</div><div class="ac-tail"><p>Second para.</p>\n<p>Third para.</p>\n</div>',
    );
  });

  test('finished blocks fill chunks of 32 and only the tail wrapper is replaced', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    const paragraphs = Array.from({ length: 70 }, (_, index) => `p${index}\n\n`).join('');
    let tail: Element | null = null;
    for (let end = 1; end <= paragraphs.length; end += 1) {
      stream.update(paragraphs.slice(0, end));
      tail ??= container.lastElementChild;
      expect(container.lastElementChild).toBe(tail);
    }
    const chunks = Array.from(container.children, (child) => [child.className, child.children.length]);
    expect(chunks).toEqual([
      ['ac-done', 32],
      ['ac-done', 32],
      ['ac-done', 5],
      ['ac-tail', 1],
    ]);
    stream.finish();
    expect(unwrapped(container)).toBe(serialize(renderMarkdown(paragraphs)));
    expect(container.querySelectorAll(':scope > div').length).toBe(4);
  });

  test('lexing work per character does not grow with the message length', () => {
    const paragraphs = (count: number) =>
      Array.from({ length: count }, (_, index) => `Paragraph ${index % 10} with *some* text.\n\n`).join('');
    const short = streamInChunks(paragraphs(150), 4).stream.stats;
    const long = streamInChunks(paragraphs(300), 4).stream.stats;
    expect(long.blocksFinalized).toBe(299);
    // Re-lexing everything on each delta would make this ratio about 4.
    expect(long.charactersLexed / short.charactersLexed).toBeLessThan(2.05);
  });

  test('an open code fence renders as a code block mid-stream', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    stream.update('```js\nlet a = 1;\nlet b');
    // The container serialized: an open block lives in the tail wrapper.
    expect(container.innerHTML).toBe(
      '<div class="ac-tail"><pre class="ac-code"><span class="ac-code-lang">js</span><code class="language-js">let a = 1;\nlet b</code></pre>\n</div>',
    );
    expect(stream.codeBlocks).toEqual([{ text: 'let a = 1;\nlet b', language: 'js', hasHiddenCharacters: false }]);
  });

  test.each([
    ['Some **bold te', '<p>Some <strong>bold te</strong></p>\n'],
    ['Some **', '<p>Some</p>\n'],
    ['Say `co', '<p>Say <code>co</code></p>\n'],
    ['**a ~~b', '<p><strong>a <del>b</del></strong></p>\n'],
  ])('an open inline construct is closed virtually mid-stream: %s', (partial, expected) => {
    const container = document.createElement('div');
    createStreamingMarkdown(container, FROZEN).update(partial);
    expect(unwrapped(container)).toBe(expected);
  });

  test('the final render shows unterminated emphasis literally, as Markdown does', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    stream.update('Some **bold');
    stream.finish();
    expect(unwrapped(container)).toBe('<p>Some **bold</p>\n');
  });

  test('a forward reference resolves at finish, re-rendering only the block that uses it', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    const markdown = 'see [x][r]\n\nmiddle\n\n[r]: https://example.com\n\nend';
    stream.update('see [x][r]\n\nmiddle\n\n');
    stream.update(markdown);
    const middle = blockNodes(container)[2];
    expect(unwrapped(container)).toBe('<p>see [x][r]</p>\n<p>middle</p>\n<p>end</p>\n');
    stream.finish();
    expect(blockNodes(container)[2]).toBe(middle);
    expect(middle?.textContent).toBe('middle');
    expect(unwrapped(container)).toBe(serialize(renderMarkdown(markdown)));
  });

  test('text past the limit is ignored and a notice follows the content', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { ...FROZEN, maxLength: 12, strings: { truncated: 'cut' } });
    stream.update('first\n\nsecond');
    stream.update('first\n\nsecond and more');
    stream.finish();
    expect(stream.isTruncated).toBe(true);
    // The container serialized: the notice follows the wrappers.
    expect(container.innerHTML).toBe(
      '<div class="ac-tail"><p>first</p>\n<p>secon</p>\n</div><p class="ac-notice">cut</p>',
    );
  });

  test('a shorter text starts the message over', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    stream.update('one\n\ntwo');
    stream.update('new');
    // The container serialized: the old chunk is gone, only the tail remains.
    expect(container.innerHTML).toBe('<div class="ac-tail"><p>new</p>\n</div>');
  });

  test('the same text after finish() changes nothing; new text starts over', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    stream.update('one\n\ntwo');
    stream.finish();
    const first = blockNodes(container)[0];
    stream.update('one\n\ntwo');
    expect(blockNodes(container)[0]).toBe(first);
    stream.update('one\n\ntwo!');
    expect(blockNodes(container)[0]).not.toBe(first);
    expect(unwrapped(container)).toBe('<p>one</p>\n<p>two!</p>\n');
  });

  test('code blocks of finished and open blocks are listed in document order', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    stream.update('```\na\n```\n\ntext\n\n```sh\nb');
    expect(stream.codeBlocks).toEqual([
      { text: 'a', language: '', hasHiddenCharacters: false },
      { text: 'b', language: 'sh', hasHiddenCharacters: false },
    ]);
    expect(container.querySelectorAll('pre').length).toBe(2);
  });

  test('deep nesting in the tail renders to the cap, the rest as text, and the stream keeps working', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, FROZEN);
    const deep = `${'>'.repeat(1900)}x`;
    stream.update(`ok\n\n${deep}`);
    stream.update(`ok\n\n${deep}\n\nafter`);
    stream.finish();
    expect(unwrapped(container)).toBe(
      `<p>ok</p>\n${'<blockquote>\n'.repeat(30)}<p>${'&gt;'.repeat(1_870)}x</p>\n${'</blockquote>\n'.repeat(30)}<p>after</p>\n`,
    );
  });
});
