import { describe, expect, test } from 'vitest';
import {
  DEFAULT_MARKDOWN_STRINGS,
  MARKDOWN_MAX_LENGTH,
  renderMarkdown,
  renderMarkdownWithCode,
} from './render-markdown.ts';

interface PolicyCase {
  title: string;
  markdown: string;
  expected: string;
}

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

const LINK = 'target="_blank" rel="noopener noreferrer"';
const deepQuote = `${'>'.repeat(100)} deep`;
const deepList = Array.from({ length: 40 }, (_, level) => `${'  '.repeat(level)}- x`).join('\n');

/** The Markdown policy: each input and the exact sanitized HTML it must become. */
const POLICY_CASES: PolicyCase[] = [
  {
    title: 'raw HTML block',
    markdown: '<div onclick="alert(1)">hi</div>',
    expected: '<p class="ac-raw">&lt;div onclick="alert(1)"&gt;hi&lt;/div&gt;</p>\n',
  },
  {
    title: 'raw HTML inline',
    markdown: 'a <img src=x onerror=alert(1)> b',
    expected: '<p>a &lt;img src=x onerror=alert(1)&gt; b</p>\n',
  },
  {
    title: 'script block',
    markdown: '<script>alert(1)</script>',
    expected: '<p class="ac-raw">&lt;script&gt;alert(1)&lt;/script&gt;</p>\n',
  },
  { title: 'javascript link inline', markdown: '[x](javascript:alert(1))', expected: '<p>x</p>\n' },
  { title: 'javascript link upper case', markdown: '[x](JaVaScRiPt:alert(1))', expected: '<p>x</p>\n' },
  { title: 'javascript link entity tab', markdown: '[x](jav&#x09;ascript:alert(1))', expected: '<p>x</p>\n' },
  { title: 'javascript link entity colon', markdown: '[x](javascript&colon;alert(1))', expected: '<p>x</p>\n' },
  { title: 'javascript link numeric entities', markdown: '[x](&#106;avascript:alert(1))', expected: '<p>x</p>\n' },
  {
    title: 'javascript link leading space angle (a harmless relative path, as in marked)',
    markdown: '[x](< javascript:alert(1)>)',
    expected: `<p><a href="%20javascript:alert(1)" title="%20javascript:alert(1)" ${LINK}>x</a></p>\n`,
  },
  { title: 'data link', markdown: '[x](data:text/html;base64,PHNjcmlwdD4=)', expected: '<p>x</p>\n' },
  { title: 'vbscript link', markdown: '[x](vbscript:msgbox(1))', expected: '<p>x</p>\n' },
  { title: 'reference javascript', markdown: '[x][r]\n\n[r]: javascript:alert(1)', expected: '<p>x</p>\n' },
  { title: 'reference data uppercase', markdown: '[x]\n\n[x]: DATA:text/html,x', expected: '<p>x</p>\n' },
  { title: 'autolink javascript', markdown: '<javascript:alert(1)>', expected: '<p>javascript:alert(1)</p>\n' },
  {
    title: 'autolink https',
    markdown: '<https://example.com/a>',
    expected: `<p><a href="https://example.com/a" title="https://example.com/a" ${LINK}>https://example.com/a</a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'bare url',
    markdown: 'see https://example.com/path.',
    expected: `<p>see <a href="https://example.com/path" title="https://example.com/path" ${LINK}>https://example.com/path</a><span class="ac-host">example.com</span>.</p>\n`,
  },
  {
    title: 'email autolink',
    markdown: '<me@example.com>',
    expected: `<p><a href="mailto:me@example.com" title="mailto:me@example.com" ${LINK}>me@example.com</a></p>\n`,
  },
  {
    title: 'https link with title and model target',
    markdown: '[docs](https://example.com/docs "Docs")',
    expected: `<p><a href="https://example.com/docs" title="https://example.com/docs" ${LINK}>docs</a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'relative link',
    markdown: '[up](../x?y=1#z)',
    expected: `<p><a href="../x?y=1#z" title="../x?y=1#z" ${LINK}>up</a></p>\n`,
  },
  { title: 'fragment link', markdown: '[top](#top)', expected: `<p><a href="#top" title="#top" ${LINK}>top</a></p>\n` },
  {
    title: 'protocol-relative link',
    markdown: '[x](//attacker.example/p)',
    expected: `<p><a href="https://attacker.example/p" title="https://attacker.example/p" ${LINK}>x</a><span class="ac-host">attacker.example</span></p>\n`,
  },
  {
    title: 'idn link',
    markdown: '[bank](https://xn--80ak6aa92e.com/)',
    expected: `<p><a href="https://xn--80ak6aa92e.com/" title="https://xn--80ak6aa92e.com/" ${LINK}>bank</a><span class="ac-host">xn--80ak6aa92e.com</span></p>\n`,
  },
  {
    title: 'image',
    markdown: '![a cat](https://img.example/cat.png)',
    expected:
      '<p><span class="ac-img" title="https://img.example/cat.png">a cat<span class="ac-host">img.example</span></span></p>\n',
  },
  {
    title: 'image in link',
    markdown: '[![logo](https://i.example/l.png)](https://example.com)',
    expected: `<p><a href="https://example.com/" title="https://example.com/" ${LINK}><span class="ac-img" title="https://i.example/l.png">logo<span class="ac-host">i.example</span></span></a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'entities',
    markdown: '&lt;b&gt; &amp;lt; &copy; &#65; &#x202E;x',
    expected: '<p>&lt;b&gt; &amp;lt; © A x</p>\n',
  },
  {
    title: 'nested emphasis',
    markdown: '***bold italic*** ~~gone~~ `a<b`',
    expected: '<p><em><strong>bold italic</strong></em> <del>gone</del> <code>a&lt;b</code></p>\n',
  },
  { title: 'unterminated emphasis', markdown: '**open', expected: '<p>**open</p>\n' },
  {
    title: 'unterminated fence',
    markdown: '```js\nlet x = 1;',
    expected:
      '<pre class="ac-code"><span class="ac-code-lang">js</span><code class="language-js">let x = 1;</code></pre>\n',
  },
  {
    title: 'fence with hostile info',
    markdown: '```js" onmouseover="alert(1)\ncode\n```',
    expected: '<pre class="ac-code"><code>code</code></pre>\n',
  },
  {
    title: 'code with bidi',
    markdown: '```\nif (a‮) {}\n```',
    expected: '<pre class="ac-code"><code>if (a<span class="ac-invisible">⟪U+202E⟫</span>) {}</code></pre>\n',
  },
  {
    title: 'codespan with zero width',
    markdown: '`a​b`',
    expected: '<p><code>a<span class="ac-invisible">⟪U+200B⟫</span>b</code></p>\n',
  },
  {
    title: 'zero-width space, word joiner and tag characters are removed from prose, headings and cells',
    markdown:
      '# T\u200Bi\n\na\u200Bb\u2060c\u{E0041}\u{E0042}d \u{1F469}\u200D\u{1F4BB}\n\n| x\u{E0041} |\n|---|\n| y\u2060 |',
    expected:
      '<h1>Ti</h1>\n<p>abcd \u{1F469}\u200D\u{1F4BB}</p>\n<table>\n<thead>\n<tr>\n<th>x</th>\n</tr>\n</thead>\n<tbody><tr>\n<td>y</td>\n</tr>\n</tbody></table>\n',
  },
  {
    title: 'zero-width space, word joiner and tag characters are removed from link text and destinations',
    markdown: '[a\u200Bb\u2060c\u{E0041}](https://example.com/x\u{E0041}\u200By)',
    expected: `<p><a href="https://example.com/xy" title="https://example.com/xy" ${LINK}>abc</a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'zero-width space, word joiner and tag characters are shown in code',
    markdown: '`a\u2060b\u{E0041}`\n\n```\nc\u200Bd\u{E007F}\n```',
    expected:
      '<p><code>a<span class="ac-invisible">⟪U+2060⟫</span>b<span class="ac-invisible">⟪U+E0041⟫</span></code></p>\n<pre class="ac-code"><code>c<span class="ac-invisible">⟪U+200B⟫</span>d<span class="ac-invisible">⟪U+E007F⟫</span></code></pre>\n',
  },
  {
    title: 'link text with bidi',
    markdown: '[pay‮gnp.exe](https://example.com/‮x)',
    expected: `<p><a href="https://example.com/x" title="https://example.com/x" ${LINK}>paygnp.exe</a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'table',
    markdown: '| a | b |\n|:--|--:|\n| `x` | <b>y</b> |',
    expected:
      '<table>\n<thead>\n<tr>\n<th class="ac-align-left">a</th>\n<th class="ac-align-right">b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td class="ac-align-left"><code>x</code></td>\n<td class="ac-align-right">&lt;b&gt;y&lt;/b&gt;</td>\n</tr>\n</tbody></table>\n',
  },
  {
    title: 'task list',
    markdown: '- [x] done\n- [ ] todo',
    expected:
      '<ul>\n<li><span class="ac-task ac-task-done">☑</span> done</li>\n<li><span class="ac-task">☐</span> todo</li>\n</ul>\n',
  },
  { title: 'ordered start', markdown: '3. three', expected: '<ol start="3">\n<li>three</li>\n</ol>\n' },
  {
    title: 'heading and quote',
    markdown: '## Title\n\n> quoted *text*',
    expected: '<h2>Title</h2>\n<blockquote>\n<p>quoted <em>text</em></p>\n</blockquote>\n',
  },
  {
    title: 'image with data URL',
    markdown: '![](data:image/png;base64,AAAA)',
    expected: '<p><span class="ac-img">image</span></p>\n',
  },
  {
    title: 'code with a terminal escape',
    markdown: '`\u001b[2J`',
    expected: '<p><code><span class="ac-invisible">⟪U+001B⟫</span>[2J</code></p>\n',
  },
  { title: 'scheme without host', markdown: '[x](https:foo)', expected: '<p>x</p>\n' },
  {
    title: 'newline inside scheme',
    markdown: '[x](<java\nscript:alert(1)>)',
    expected: '<p>[x](&lt;java\nscript:alert(1)&gt;)</p>\n',
  },
  {
    title: 'unknown named entity in URL stays literal',
    markdown: '[x](https://example.com/&bogus;)',
    expected: `<p><a href="https://example.com/&amp;bogus;" title="https://example.com/&amp;bogus;" ${LINK}>x</a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'any HTML5 named reference in a destination is decoded',
    markdown: '[x](/f&ouml;&ouml;?a&hookleftarrow;b)',
    expected: `<p><a href="/föö?a↩b" title="/föö?a↩b" ${LINK}>x</a></p>\n`,
  },
  {
    title: 'references in an autolink are not decoded (as in marked)',
    markdown: '<https://example.com/&ouml;>',
    expected: `<p><a href="https://example.com/&amp;ouml;" title="https://example.com/&amp;ouml;" ${LINK}>https://example.com/&amp;ouml;</a><span class="ac-host">example.com</span></p>\n`,
  },
  {
    title: 'empty destinations link to the page itself',
    markdown: '[a]() [b](<>) [c]\n\n[c]: <>',
    expected: `<p><a href="" title="" ${LINK}>a</a> <a href="" title="" ${LINK}>b</a> <a href="" title="" ${LINK}>c</a></p>\n`,
  },
  {
    title: 'a backslash and brackets are percent-encoded and the link stays document-relative',
    markdown: '[x](foo\\bar[1])',
    expected: `<p><a href="foo%5Cbar%5B1%5D" title="foo%5Cbar%5B1%5D" ${LINK}>x</a></p>\n`,
  },
  {
    title: 'raw inline anchor',
    markdown: '<a href="javascript:alert(1)" target=_top>x</a>',
    expected: '<p>&lt;a href="javascript:alert(1)" target=_top&gt;x&lt;/a&gt;</p>\n',
  },
  {
    title: 'HTML comment',
    markdown: '<!-- <img src=x> -->',
    expected: '<p class="ac-raw">&lt;!-- &lt;img src=x&gt; --&gt;</p>\n',
  },
  {
    title: 'deep blockquote nesting (30 quotes, then the deeper markers as text)',
    markdown: deepQuote,
    expected: `${'<blockquote>\n'.repeat(30)}<p>${'&gt;'.repeat(70)} deep</p>\n${'</blockquote>\n'.repeat(30)}`,
  },
];

describe('renderMarkdown policy', () => {
  test.each(POLICY_CASES.map((policyCase) => [policyCase.title, policyCase] as const))('%s', (_title, policyCase) => {
    expect(serialize(renderMarkdown(policyCase.markdown))).toBe(policyCase.expected);
  });

  test('input over the limit is truncated before parsing with a visible notice', () => {
    const rendered = renderMarkdownWithCode('a'.repeat(MARKDOWN_MAX_LENGTH + 1));
    expect(rendered.isTruncated).toBe(true);
    expect(serialize(rendered.fragment)).toBe(
      `<p>${'a'.repeat(MARKDOWN_MAX_LENGTH)}</p>\n<p class="ac-notice">${DEFAULT_MARKDOWN_STRINGS.truncated}</p>`,
    );
  });

  test('truncation never splits a surrogate pair and uses the given notice', () => {
    const rendered = renderMarkdownWithCode('ab😀c', { maxLength: 3, strings: { truncated: '已截断' } });
    expect(serialize(rendered.fragment)).toBe('<p>ab</p>\n<p class="ac-notice">已截断</p>');
  });

  test('a 40-level list ladder renders 15 lists deep, the deeper lines as text in the innermost item', () => {
    const rendered = renderMarkdownWithCode(deepList);
    expect(rendered.isFallback).toBe(false);
    const innermost = Array.from(rendered.fragment.querySelectorAll('li')).at(-1);
    expect(rendered.fragment.querySelectorAll('ul').length).toBe(15);
    expect(innermost?.querySelector('ul')).toBeNull();
    expect(innermost?.textContent?.replace(/\s+/g, '')).toBe(`x${'-x'.repeat(25)}`);
  });

  test('~1.9k nested quotes (marked alone overflows its stack) render 30 deep, the rest as text', () => {
    const rendered = renderMarkdownWithCode(`${'>'.repeat(1900)}x`);
    expect(rendered.isFallback).toBe(false);
    expect(rendered.fragment.querySelectorAll('blockquote').length).toBe(30);
    expect(rendered.fragment.textContent?.trim()).toBe(`${'>'.repeat(1870)}x`);
  });

  test('code blocks expose their exact source, language and hidden-character flag in document order', () => {
    const rendered = renderMarkdownWithCode('```ts\nconst a = "\u202E";\n```\n\n> ```\n> plain\n> ```');
    expect(rendered.codeBlocks).toEqual([
      { text: 'const a = "\u202E";', language: 'ts', hasHiddenCharacters: true },
      { text: 'plain', language: '', hasHiddenCharacters: false },
    ]);
    expect(rendered.fragment.querySelectorAll('pre').length).toBe(2);
  });

  test('the image placeholder text is translatable', () => {
    expect(serialize(renderMarkdown('![](https://i.example/x.png)', { strings: { image: '图片' } }))).toBe(
      '<p><span class="ac-img" title="https://i.example/x.png">图片<span class="ac-host">i.example</span></span></p>\n',
    );
  });
});
