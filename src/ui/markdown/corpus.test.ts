import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { renderMarkdown, renderMarkdownWithCode } from './render-markdown.ts';
import { sanitizeHtml } from './sanitize-html.ts';
import { createStreamingMarkdown, DONE_CHUNK_CLASS, TAIL_CLASS } from './streaming-markdown.ts';

interface CorpusEntry {
  id: string;
  surface: 'assistant_markdown' | 'tool_args_json';
  markdown: string;
  must: string[];
}

/** Resolved from the repository root; see test/fixtures/README.md for the corpus's sources. */
const CORPUS_PATH = 'test/fixtures/xss-corpus.jsonl';
const ALLOWED = new Set(
  'p br hr h1 h2 h3 h4 h5 h6 strong em del s code pre blockquote ul ol li a table thead tbody tr th td span sup sub'.split(
    ' ',
  ),
);
const URL_ATTRIBUTES =
  'href src srcset action formaction poster background cite data xlink:href ping longdesc lowsrc dynsrc srcdoc'.split(
    ' ',
  );
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;
const DOM_CODES = [
  'NO_ON_ATTR',
  'SAFE_URL',
  'ALLOWED_EL',
  'NO_STYLE',
  'LINK_SAFE',
  'NO_CLOBBER',
  'CODE_TEXT',
  'BIDI_SAFE',
  'NO_REMOTE_IMG',
  'NO_NAV',
];
const REPORTED = [
  'NO_EXEC',
  'NO_NET',
  ...DOM_CODES,
  'NO_CRASH',
  'IDEMPOTENT',
  'COPY_EXACT',
  'STREAM_SAFE',
  'STREAM_EQUALS_COMPLETE',
  'TEXT_ONLY',
  'BUDGET',
  'APPROVAL_FULL',
];
const NOT_HERE: Record<string, string> = { BUDGET: 'timing: bench/', APPROVAL_FULL: 'approval card' };

const results = new Map<string, Map<string, boolean>>();
const calls: string[] = [];
let entries: CorpusEntry[] = [];
const corpusText = await readCorpus();
entries = corpusText
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as CorpusEntry);
const markdownEntries = entries.filter((entry) => entry.surface === 'assistant_markdown');

async function readCorpus(): Promise<string> {
  return await commands.readFile(CORPUS_PATH);
}

function record(entry: CorpusEntry, code: string, isPassing: boolean): void {
  const byCode = results.get(entry.id) ?? new Map<string, boolean>();
  byCode.set(code, (byCode.get(code) ?? true) && isPassing);
  results.set(entry.id, byCode);
}

const MEDIA = new Set(['img', 'image', 'source', 'video', 'audio', 'picture', 'input', 'iframe', 'object', 'embed']);
const STYLING = new Set(['style', 'link']);
const NAVIGATING = new Set(['base', 'meta', 'form']);
const IMAGE_ATTRIBUTES = new Set(['srcset', 'poster', 'background', 'src']);
const URL_ATTRIBUTE_SET = new Set(URL_ATTRIBUTES);
const OUR_CLASS = /^(?:ac-[a-z-]+|language-[a-z0-9+#-]+)$/;

/** Whether `element` is one of the streaming renderer's own wrappers: a bare div child of the root with exactly that class. */
function isWrapper(element: Element, root: Element): boolean {
  if (element.parentElement !== root || element.localName !== 'div' || element.attributes.length !== 1) return false;
  return element.className === DONE_CHUNK_CLASS || element.className === TAIL_CLASS;
}

/** The root's HTML with the streaming renderer's wrappers taken out (their contents kept in place). */
function unwrappedHtml(root: Element): string {
  return Array.from(root.childNodes, (node) =>
    node instanceof Element ? (isWrapper(node, root) ? node.innerHTML : node.outerHTML) : (node.textContent ?? ''),
  ).join('');
}

/** Returns the violated DOM invariant codes of a rendered subtree (root and the renderer's wrappers excluded). */
function scanDom(root: Element): Set<string> {
  const failed = new Set<string>();
  const elements = root.getElementsByTagName('*');
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index];
    if (!element || isWrapper(element, root)) continue;
    const name = element.localName;
    if (!ALLOWED.has(name)) failed.add('ALLOWED_EL');
    if (MEDIA.has(name)) failed.add('NO_REMOTE_IMG');
    if (STYLING.has(name)) failed.add('NO_STYLE');
    if (NAVIGATING.has(name)) failed.add('NO_NAV');
    const attributes = element.attributes;
    for (let position = 0; position < attributes.length; position += 1) {
      const attribute = attributes[position];
      if (!attribute) continue;
      const attributeName = attribute.name.toLowerCase();
      if (attributeName.startsWith('on')) failed.add('NO_ON_ATTR');
      if (attributeName === 'style') failed.add('NO_STYLE');
      if (attributeName === 'id' || attributeName === 'name') failed.add('NO_CLOBBER');
      if (IMAGE_ATTRIBUTES.has(attributeName)) failed.add('NO_REMOTE_IMG');
      if (attributeName === 'class' && !attribute.value.split(' ').every((token) => OUR_CLASS.test(token)))
        failed.add('NO_STYLE');
      if (URL_ATTRIBUTE_SET.has(attributeName) && !isSafeUrl(attribute.value, attributeName === 'href'))
        failed.add('SAFE_URL');
    }
    if (name === 'a') {
      if (!isSafeLink(element)) failed.add('LINK_SAFE');
      if (HIDDEN.test(element.textContent) || HIDDEN.test(element.getAttribute('href') ?? '')) failed.add('BIDI_SAFE');
    }
    if (name === 'code') {
      if (HIDDEN.test(element.textContent)) failed.add('BIDI_SAFE');
      if (
        Array.from(element.querySelectorAll('*')).some(
          (child) => child.localName !== 'span' || child.className !== 'ac-invisible',
        )
      )
        failed.add('CODE_TEXT');
      if (
        Array.from(element.attributes).some(
          (attribute) => attribute.name !== 'class' || !/^language-[a-z0-9+#-]+$/.test(attribute.value),
        )
      )
        failed.add('CODE_TEXT');
    }
  }
  return failed;
}

function isSafeUrl(value: string, isHref: boolean): boolean {
  try {
    const protocol = new URL(value, location.href).protocol;
    return protocol === 'https:' || protocol === 'http:' || (isHref && protocol === 'mailto:');
  } catch {
    return false;
  }
}

function isSafeLink(link: Element): boolean {
  const rel = (link.getAttribute('rel') ?? '').split(/\s+/);
  const href = link.getAttribute('href');
  if (!href || link.getAttribute('target') !== '_blank' || !rel.includes('noopener') || !rel.includes('noreferrer'))
    return false;
  if (link.hasAttribute('download') || link.hasAttribute('ping')) return false;
  const url = new URL(href, location.href);
  if (url.protocol === 'mailto:' || url.host === location.host) return link.getAttribute('title') === href;
  const badge = link.nextElementSibling;
  return badge?.className === 'ac-host' && badge.textContent === url.host && link.getAttribute('title') === url.href;
}

function unmarkInvisible(text: string): string {
  return text.replace(/⟪U\+([0-9A-F]{4,6})⟫/g, (_marker, hex: string) =>
    String.fromCodePoint(Number.parseInt(hex, 16)),
  );
}

function serialize(fragment: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

/** Seeded PRNG (mulberry32) so a failing stream can be replayed. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function foreignResources(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((resource) => resource.name)
    .filter((name) => new URL(name).host !== location.host);
}

const originals = {
  alert: window.alert,
  confirm: window.confirm,
  prompt: window.prompt,
  print: window.print,
  open: window.open,
  write: document.write,
};
const onViolation = (event: SecurityPolicyViolationEvent): void => void calls.push(`csp:${event.violatedDirective}`);

beforeAll(() => {
  window.alert = (message?: unknown) => void calls.push(`alert:${String(message)}`);
  window.confirm = (message?: string) => (calls.push(`confirm:${String(message)}`), false);
  window.prompt = (message?: string) => (calls.push(`prompt:${String(message)}`), null);
  window.print = () => void calls.push('print');
  window.open = (url?: string | URL) => (calls.push(`open:${String(url)}`), null);
  document.write = (...text: string[]) => void calls.push(`write:${text.join('')}`);
  document.addEventListener('securitypolicyviolation', onViolation);
});

afterAll(() => {
  Object.assign(window, {
    alert: originals.alert,
    confirm: originals.confirm,
    prompt: originals.prompt,
    print: originals.print,
    open: originals.open,
  });
  document.write = originals.write;
  document.removeEventListener('securitypolicyviolation', onViolation);
  const rows = REPORTED.map((code) => {
    const required = entries.filter((entry) => entry.must.includes(code));
    const requiredMarkdown = required.filter((entry) => entry.surface === 'assistant_markdown');
    const checked = markdownEntries.filter((entry) => results.get(entry.id)?.has(code));
    const passed = checked.filter((entry) => results.get(entry.id)?.get(code) === true);
    const passedRequired = requiredMarkdown.filter((entry) => results.get(entry.id)?.get(code) === true);
    return {
      code,
      required: requiredMarkdown.length,
      'required passing': NOT_HERE[code] ?? passedRequired.length,
      'checked on': checked.length,
      passing: passed.length,
      'not for markdown': required.length - requiredMarkdown.length,
    };
  });
  console.log(
    `XSS corpus: ${entries.length} entries, ${markdownEntries.length} assistant_markdown, ${entries.length - markdownEntries.length} tool_args_json (not for markdown)`,
  );
  const columns = Object.keys(rows[0] ?? {});
  const lines = [columns, ...rows.map((row) => Object.values(row).map(String))].map((cells) =>
    cells.map((cell, index) => cell.padEnd(index === 0 ? 24 : 18)).join(''),
  );
  console.log(lines.join('\n'));
});

describe('XSS corpus through the Markdown pipeline', () => {
  test('the corpus has assistant_markdown entries', () => {
    expect(markdownEntries.length).toBeGreaterThan(100);
  });

  test.each(markdownEntries.map((entry) => [entry.id, entry] as const))(
    '%s',
    async (_id, entry) => {
      const failures: string[] = [];
      const check = (code: string, isPassing: boolean, detail = ''): void => {
        record(entry, code, isPassing);
        if (!isPassing) failures.push(`${code} ${detail}`.trim());
      };
      const callsBefore = calls.length;
      const resourcesBefore = foreignResources().length;

      let complete: ReturnType<typeof renderMarkdownWithCode> | undefined;
      try {
        complete = renderMarkdownWithCode(entry.markdown);
      } catch (error) {
        check('NO_CRASH', false, String(error));
      }
      const host = document.createElement('div');
      document.body.append(host);
      if (complete) {
        host.append(complete.fragment);
        const failed = scanDom(host);
        for (const code of DOM_CODES) check(code, !failed.has(code), 'complete render');
        const html = host.innerHTML;
        const reparsed = document.createElement('div');
        reparsed.innerHTML = html;
        check('IDEMPOTENT', reparsed.innerHTML === html && serialize(sanitizeHtml(html)) === html);
        const blocks = Array.from(host.querySelectorAll('pre > code'), (code) => unmarkInvisible(code.textContent));
        check('COPY_EXACT', JSON.stringify(blocks) === JSON.stringify(complete.codeBlocks.map((block) => block.text)));
        if (entry.must.includes('TEXT_ONLY'))
          check(
            'TEXT_ONLY',
            host.querySelectorAll('*').length === host.querySelectorAll('p, br').length &&
              host.textContent.includes(entry.markdown.trim().split('\n')[0] ?? ''),
          );
      }

      const streamed = document.createElement('div');
      document.body.append(streamed);
      const random = createRandom(Number.parseInt(entry.id.replace(/\D/g, ''), 10) || 1);
      try {
        const stream = createStreamingMarkdown(streamed);
        let renders = -1;
        for (let end = 0; end < entry.markdown.length;) {
          end = Math.min(entry.markdown.length, end + 1 + Math.floor(random() * 16));
          stream.update(entry.markdown.slice(0, end));
          const stats = stream.stats;
          if (stats.tailRenders === renders) continue;
          renders = stats.tailRenders;
          const failed = scanDom(streamed);
          if (failed.size > 0) check('STREAM_SAFE', false, `at ${end}: ${[...failed].join(',')}`);
        }
        stream.finish();
        const failed = scanDom(streamed);
        check('STREAM_SAFE', failed.size === 0, [...failed].join(','));
        // A block over the render budget (streaming-markdown.test.ts) may end as escaped text by design.
        if (complete && !complete.isFallback && !complete.isTruncated && stream.stats.blocksOverBudget === 0)
          check('STREAM_EQUALS_COMPLETE', unwrappedHtml(streamed) === host.innerHTML);
      } catch (error) {
        check('NO_CRASH', false, `stream: ${String(error)}`);
      }

      await new Promise((resolve) => setTimeout(resolve, 0));
      check('NO_EXEC', calls.length === callsBefore, calls.slice(callsBefore).join(' '));
      check(
        'NO_NET',
        foreignResources().length === resourcesBefore,
        foreignResources().slice(resourcesBefore).join(' '),
      );
      const control = document.createElement('div');
      control.append(renderMarkdown('**ok**'));
      check('NO_CRASH', control.innerHTML === '<p><strong>ok</strong></p>\n');
      host.remove();
      streamed.remove();
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
