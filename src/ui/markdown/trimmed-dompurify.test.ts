/// <reference types="vite/client" />
import { beforeAll, describe, expect, test } from 'vitest';
import DOMPurify from 'dompurify';
import purifySource from '../../../node_modules/dompurify/dist/purify.es.mjs?raw';
import { dropUnusedDomPurifyMethods, trimDomPurifyLists } from '../../../scripts/build/trim-dompurify-lists.ts';
import { createWidgetPurifier, SANITIZE_CONFIG } from './sanitize-html.ts';

/**
 * The IIFE ships DOMPurify with its default lists and its SVG and MathML element lists emptied and its unused methods cut
 * (scripts/build/trim-dompurify-defaults.ts).
 * These tests load that trimmed DOMPurify next to the stock one in the same page and check that,
 * under the widget's config and hooks, both give byte-identical output on every element and
 * attribute name DOMPurify knows, in HTML, SVG and MathML, and on mutation-XSS classics.
 */
let trimmedFactory: typeof DOMPurify;

beforeAll(async () => {
  const lists = trimDomPurifyLists(purifySource);
  if (typeof lists !== 'string') throw new Error(lists.error);
  const trimmed = dropUnusedDomPurifyMethods(lists);
  if (typeof trimmed !== 'string') throw new Error(trimmed.error);
  const url = URL.createObjectURL(new Blob([trimmed], { type: 'text/javascript' }));
  trimmedFactory = ((await import(/* @vite-ignore */ url)) as { default: typeof DOMPurify }).default;
  URL.revokeObjectURL(url);
});

/** Every name in DOMPurify's own frozen lists (elements and attributes alike), read from its source. */
function readDomPurifyNames(): string[] {
  const names = new Set<string>();
  for (const list of purifySource.matchAll(/^const [\w$]+ = freeze\(\[([^\]]*)\]\);$/gm)) {
    for (const name of (list[1] ?? '').matchAll(/"([^"]+)"/g)) names.add(name[1] ?? '');
  }
  return [...names];
}

const MUTATION_XSS = [
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<math><mi><table><mi><svg><a xlink:href="javascript:alert(1)">x</a></svg>',
  '<a href="&#x6A;avascript:alert(1)">x</a><a href=" https://example.com/">y</a>',
  '<table><tbody><tr><td><ul><li>cell</li></ul></td></tr></tbody></table><template><p>t</p></template>',
  '<p>plain <strong>strong</strong> <em>em</em> <code>code</code> <sup>1</sup></p><pre><code class="language-js">x</code></pre>',
  '<ol start="3"><li>three</li></ol><blockquote><h2 title="t">h</h2><hr><br></blockquote>',
];

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

describe('the IIFE’s trimmed DOMPurify', () => {
  test('sanitizes exactly like stock DOMPurify under the widget config, for every name DOMPurify knows', () => {
    const stock = createWidgetPurifier(DOMPurify);
    const trimmed = createWidgetPurifier(trimmedFactory);
    const names = readDomPurifyNames();
    expect(names.length).toBeGreaterThan(500);
    const attributes =
      'title="t" href="https://example.com/" class="ac-note language-js evil" start="3" onclick="alert(1)"';
    const inputs = [
      ...names.flatMap((name) => [
        `<${name} ${attributes}>text <b>b</b></${name}>`,
        `<svg><${name} ${attributes}>s</${name}></svg>`,
        `<math><${name} ${attributes}>m</${name}></math>`,
        `<p ${name}="v">p</p><a href="https://example.com/" ${name}="javascript:alert(1)">a</a>`,
        `<svg><circle ${name}="v"></circle><a ${name}="v">x</a></svg>`,
      ]),
      ...MUTATION_XSS,
    ];
    const differences = inputs.filter(
      (input) =>
        serialize(trimmed.sanitize(input, SANITIZE_CONFIG)) !== serialize(stock.sanitize(input, SANITIZE_CONFIG)),
    );
    expect(differences).toEqual([]);
  });

  test('allows less, never more, where a config relies on the defaults', () => {
    const html = '<p title="t">a <b>b</b></p><svg><circle r="1"></circle></svg>';
    expect(DOMPurify(window).sanitize(html)).toBe('<p title="t">a <b>b</b></p><svg><circle r="1"></circle></svg>');
    // The default lists are empty, and so are the SVG element names: the whole SVG goes too.
    expect(trimmedFactory(window).sanitize(html)).toBe('a b');
  });
});
