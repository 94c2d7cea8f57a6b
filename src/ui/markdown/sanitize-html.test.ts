import { describe, expect, test } from 'vitest';
import { sanitizeHtml } from './sanitize-html.ts';

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

/** The second wall on its own: what it must do with HTML a buggy renderer might emit. */
const WALL_CASES: Array<{ title: string; html: string; expected: string }> = [
  {
    title: 'event handlers and images',
    html: '<p onclick="x">a<img src=x onerror=alert(1)></p>',
    expected: '<p>a</p>',
  },
  { title: 'script and style', html: '<script>alert(1)</script><style>p{}</style><p>t</p>', expected: '<p>t</p>' },
  {
    title: 'script link and model target',
    html: '<a href="javascript:alert(1)" target="_top" rel="opener">x</a>',
    expected: '<a>x</a>',
  },
  {
    title: 'safe link gets target and rel',
    html: '<a href="https://example.com/" download ping="https://attacker.example">x</a>',
    expected:
      '<a href="https://example.com/" title="https://example.com/" target="_blank" rel="noopener noreferrer">x</a>',
  },
  {
    title: 'model class, id, name and style',
    html: '<p class="evil ac-ok language-js" id="location" name="x" style="position:fixed">t</p>',
    expected: '<p class="ac-ok language-js">t</p>',
  },
  { title: 'target and rel only on links', html: '<span target="_blank" rel="x">t</span>', expected: '<span>t</span>' },
  {
    title: 'svg and mathml',
    html: '<svg><a xlink:href="//attacker.example">s</a></svg><math><mi>m</mi></math>',
    expected: '',
  },
  {
    title: 'forms and base',
    html: '<form action="//attacker.example"><input name="submit"><button>b</button></form><base href="//attacker.example">',
    expected: 'b',
  },
  {
    title: 'bidi controls in link text',
    html: '<a href="https://example.com/">ab\u202Ecd</a>',
    expected:
      '<a href="https://example.com/" title="https://example.com/" target="_blank" rel="noopener noreferrer">abcd</a>',
  },
  {
    title: 'hidden characters in code are left to the renderer',
    html: '<code>a\u202Eb</code>',
    expected: '<code>a\u202Eb</code>',
  },
  {
    title: 'highlighter classes on spans only, nothing else of theirs',
    html: '<code><span class="hljs-title function_ evil" style="color:red" onclick="x">f</span><b class="hljs-keyword">k</b></code>',
    expected: '<code><span class="hljs-title">f</span>k</code>',
  },
  {
    title: 'highlighter classes nowhere but on spans',
    html: '<pre class="hljs-keyword"><code class="hljs-string language-ts">x</code></pre><p class="hljs-comment">p</p>',
    expected: '<pre><code class="language-ts">x</code></pre><p>p</p>',
  },
];

describe('sanitizeHtml', () => {
  test.each(WALL_CASES.map((wallCase) => [wallCase.title, wallCase] as const))('%s', (_title, wallCase) => {
    expect(serialize(sanitizeHtml(wallCase.html))).toBe(wallCase.expected);
  });
});
