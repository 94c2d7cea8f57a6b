import { beforeAll, describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import DOMPurify, { type Config } from 'dompurify';
import { createWidgetPurifier, SANITIZE_CONFIG } from './sanitize-html.ts';

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** `purify.es.mjs` as the IIFE bundles it (scripts/build/read-iife-dompurify.ts). */
    readIifeDomPurify: () => Promise<string>;
  }
}

/**
 * The IIFE ships DOMPurify trimmed (scripts/build/trim-dompurify-defaults.ts) and with its
 * configuration folded to the widget's (scripts/build/fold-dompurify-config.ts). These tests load
 * exactly that DOMPurify next to the stock one in the same page and check that, under the widget's
 * config and hooks, with and without a Trusted Types policy, both give byte-identical output and
 * remove the same number of nodes and attributes, call after call, on the hostile corpus, on every
 * name DOMPurify knows and on inputs aimed at each option the fold removes.
 */
let iifeFactory: typeof DOMPurify;
let corpus: string[];
let names: string[];

beforeAll(async () => {
  const source = await commands.readIifeDomPurify();
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  iifeFactory = ((await import(/* @vite-ignore */ url)) as { default: typeof DOMPurify }).default;
  URL.revokeObjectURL(url);
  const lines = (await commands.readFile('test/fixtures/xss-corpus.jsonl')).split('\n').filter(Boolean);
  corpus = lines.map((line) => (JSON.parse(line) as { markdown: string }).markdown);
  const stock = await commands.readFile('node_modules/dompurify/dist/purify.es.mjs');
  names = [
    ...new Set(
      [...stock.matchAll(/^const [\w$]+ = freeze\(\[([^\]]*)\]\);$/gm)].flatMap((list) =>
        [...(list[1] ?? '').matchAll(/"([^"]+)"/g)].map((name) => name[1] ?? ''),
      ),
    ),
  ];
});

/** Inputs aimed at the options the fold removes, each of which must behave as the defaults say. */
const OPTION_PROBES = [
  '',
  'plain text without markup',
  '   <p>leading whitespace</p>',
  '<p>{{constructor.constructor("alert(1)")()}}</p><p title="{{x}}">${y}</p><%= z %>',
  '<!DOCTYPE html><html><head><title>t</title></head><body><p>whole</p></body></html>',
  '<style>s</style><p>force body</p>',
  '<p id="cookie" name="location" data-x="1" aria-label="a" title="t">named</p>',
  '<a href="foo:bar">u</a><a href="data:text/html,x">d</a><a href="tel:1">t</a><a href="javascript:alert(1)">j</a>',
  '<a href=" \u0000java\nscript:alert(1)">w</a><a href="https://example.com/" title="x/>y">s</a>',
  '<my-element is="x">c</my-element><p is="my-p">i</p><a is="x" href="https://example.com/">l</a>',
  '<svg><![CDATA[x]]></svg><?xml-stylesheet href="x"?><p>pi</p>',
  '<template><p>t</p></template><div><template shadowrootmode="open"><p>shadow</p></template></div>',
  '<form><input name="attributes"><input name="nodeName"></form><form id="f"><p name="removeChild">x</p></form>',
  '<!-- <img src=x onerror=alert(1)> --><p title="</p><img src=x onerror=alert(1)>">c</p>',
  '<table><tr><td>cell</td></tr></table><table><caption>x</caption>text<tr><td>y</td></tr></table>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript><noembed>e</noembed>',
  '<math><mi><mglyph><svg><mtext><style><img src onerror=alert(1)></style></mtext></svg></mglyph></mi></math>',
  '<p patchsrc="x" for="y">patch</p><label for="z">l</label>',
  '<a href="https://example.com/" attributename="href" title="&lt;b&gt;">a</a><p title="</style>">e</p>',
];

/** The part of Chromium's `window.trustedTypes` the test uses. */
interface PolicyFactory {
  createPolicy(
    name: string,
    rules: { createHTML(input: string): string; createScriptURL(input: string): string },
  ): NonNullable<Config['TRUSTED_TYPES_POLICY']>;
}

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

describe('the IIFE’s DOMPurify', () => {
  test('sanitizes exactly like stock DOMPurify under the widget config, with and without Trusted Types', () => {
    const factory = (window as { trustedTypes?: PolicyFactory }).trustedTypes;
    if (!factory) throw new Error('this test needs Chromium’s Trusted Types API');
    const policy = factory.createPolicy('iife-dompurify-test', {
      createHTML: (input: string) => input,
      createScriptURL: (input: string) => input,
    });
    const attributes =
      'title="t" href="https://example.com/" class="ac-note language-js evil" start="3" onclick="alert(1)"';
    const inputs = [
      ...OPTION_PROBES,
      ...corpus,
      ...names.flatMap((name) => [
        `<${name} ${attributes}>text <b>b</b></${name}>`,
        `<svg><${name} ${attributes}>s</${name}></svg>`,
        `<math><${name} ${attributes}>m</${name}></math>`,
        `<p ${name}="v">p</p><a href="https://example.com/" ${name}="javascript:alert(1)">a</a>`,
      ]),
    ];
    expect(corpus.length).toBeGreaterThan(150);
    expect(names.length).toBeGreaterThan(500);
    const stock = createWidgetPurifier(DOMPurify);
    const iife = createWidgetPurifier(iifeFactory);
    const differences: string[] = [];
    for (const config of [SANITIZE_CONFIG, { ...SANITIZE_CONFIG, TRUSTED_TYPES_POLICY: policy }]) {
      for (const input of inputs) {
        const expected = serialize(stock.sanitize(input, config));
        const actual = serialize(iife.sanitize(input, config));
        if (actual !== expected || iife.removed.length !== stock.removed.length) differences.push(input);
      }
    }
    expect(differences).toEqual([]);
  });
});
