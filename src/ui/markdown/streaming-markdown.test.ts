import { describe, expect, test } from 'vitest';
import { renderMarkdown } from './render-markdown.ts';
import { createStreamingMarkdown } from './streaming-markdown.ts';

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

function streamInChunks(markdown: string, chunk: number, container = document.createElement('div')) {
  const stream = createStreamingMarkdown(container);
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
  test.each(DOCUMENTS)('%s: the finished stream equals the one-shot render for every chunk size', (_title, markdown) => {
    const expected = serialize(renderMarkdown(markdown));
    for (const chunk of [1, 2, 3, 7, 16]) expect(streamInChunks(markdown, chunk).container.innerHTML).toBe(expected);
  });

  test('finished blocks are rendered once: their nodes survive later updates untouched', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    stream.update('First para.\n\nSecond');
    expect(stream.stats).toEqual({ blocksFinalized: 0, tailRenders: 1, charactersLexed: 19 });
    stream.update('First para.\n\nSecond para.\n\nThird');
    const first = container.firstChild;
    expect(first?.textContent).toBe('First para.');
    stream.update('First para.\n\nSecond para.\n\nThird para.');
    stream.finish();
    expect(container.firstChild).toBe(first);
    expect(stream.stats).toEqual({ blocksFinalized: 1, tailRenders: 4, charactersLexed: 19 + 32 + 25 + 25 });
    expect(container.innerHTML).toBe('<p>First para.</p>\n<p>Second para.</p>\n<p>Third para.</p>\n');
  });

  test('lexing work per character does not grow with the message length', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index % 10} with *some* text.\n\n`).join('');
    const short = streamInChunks(paragraphs(150), 4).stream.stats;
    const long = streamInChunks(paragraphs(300), 4).stream.stats;
    expect(long.blocksFinalized).toBe(299);
    // Re-lexing everything on each delta would make this ratio about 4.
    expect(long.charactersLexed / short.charactersLexed).toBeLessThan(2.05);
  });

  test('an open code fence renders as a code block mid-stream', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    stream.update('```js\nlet a = 1;\nlet b');
    expect(container.innerHTML).toBe('<pre class="ac-code"><span class="ac-code-lang">js</span><code class="language-js">let a = 1;\nlet b</code></pre>\n');
    expect(stream.codeBlocks).toEqual([{ text: 'let a = 1;\nlet b', language: 'js', hasHiddenCharacters: false }]);
  });

  test.each([
    ['Some **bold te', '<p>Some <strong>bold te</strong></p>\n'],
    ['Some **', '<p>Some</p>\n'],
    ['Say `co', '<p>Say <code>co</code></p>\n'],
    ['**a ~~b', '<p><strong>a <del>b</del></strong></p>\n'],
  ])('an open inline construct is closed virtually mid-stream: %s', (partial, expected) => {
    const container = document.createElement('div');
    createStreamingMarkdown(container).update(partial);
    expect(container.innerHTML).toBe(expected);
  });

  test('the final render shows unterminated emphasis literally, as Markdown does', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    stream.update('Some **bold');
    stream.finish();
    expect(container.innerHTML).toBe('<p>Some **bold</p>\n');
  });

  test('a forward reference resolves at finish, re-rendering only the block that uses it', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    const markdown = 'see [x][r]\n\nmiddle\n\n[r]: https://example.com\n\nend';
    stream.update('see [x][r]\n\nmiddle\n\n');
    stream.update(markdown);
    const middle = container.childNodes[2];
    expect(container.innerHTML).toBe('<p>see [x][r]</p>\n<p>middle</p>\n<p>end</p>\n');
    stream.finish();
    expect(container.childNodes[2]).toBe(middle);
    expect(container.innerHTML).toBe(serialize(renderMarkdown(markdown)));
  });

  test('text past the limit is ignored and a notice follows the content', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container, { maxLength: 12, strings: { truncated: 'cut' } });
    stream.update('first\n\nsecond');
    stream.update('first\n\nsecond and more');
    stream.finish();
    expect(stream.isTruncated).toBe(true);
    expect(container.innerHTML).toBe('<p>first</p>\n<p>secon</p>\n<p class="ac-notice">cut</p>');
  });

  test('a shorter text starts the message over', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    stream.update('one\n\ntwo');
    stream.update('new');
    expect(container.innerHTML).toBe('<p>new</p>\n');
  });

  test('the same text after finish() changes nothing; new text starts over', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    stream.update('one\n\ntwo');
    stream.finish();
    const first = container.firstChild;
    stream.update('one\n\ntwo');
    expect(container.firstChild).toBe(first);
    stream.update('one\n\ntwo!');
    expect(container.firstChild).not.toBe(first);
    expect(container.innerHTML).toBe('<p>one</p>\n<p>two!</p>\n');
  });

  test('code blocks of finished and open blocks are listed in document order', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    stream.update('```\na\n```\n\ntext\n\n```sh\nb');
    expect(stream.codeBlocks).toEqual([
      { text: 'a', language: '', hasHiddenCharacters: false },
      { text: 'b', language: 'sh', hasHiddenCharacters: false },
    ]);
    expect(container.querySelectorAll('pre').length).toBe(2);
  });

  test('deep nesting in the tail falls back to plain text and the stream keeps working', () => {
    const container = document.createElement('div');
    const stream = createStreamingMarkdown(container);
    const deep = `${'>'.repeat(1900)}x`;
    stream.update(`ok\n\n${deep}`);
    stream.update(`ok\n\n${deep}\n\nafter`);
    stream.finish();
    expect(container.innerHTML).toBe(`<p>ok</p>\n<p class="ac-plain">${'&gt;'.repeat(1900)}x\n\nafter</p>`);
  });
});
