import { describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { marked } from 'marked';
import type { Token } from 'marked';
import { renderMarkdown } from './render-markdown.ts';
import { lexMarkdown } from './render-tokens-to-html.ts';

interface SpecExample {
  number: number;
  section: string;
  markdown: string;
}

/**
 * Examples where the widget's policy, not a bug, makes the output differ from marked's, each with
 * its reason. A listed example must really differ, so the list cannot go stale.
 */
const POLICY_EXCLUSIONS: Record<number, string> = {
  34: 'info string `föö` is outside the language-label pattern [a-z0-9+#-]{1,32}: no class',
  144: 'info string `;` is outside the language-label pattern [a-z0-9+#-]{1,32}: no class',
  596: 'scheme irc: is outside the allow-list (http, https, mailto): plain text',
  598: 'scheme a+b+c: is outside the allow-list: plain text',
  599: 'scheme made-up-scheme: is outside the allow-list: plain text',
  601: 'scheme localhost: is outside the allow-list: plain text',
};

/** A document URL with a path, so a document-relative link resolves differently from a root-relative one. */
const DOCUMENT_URL = 'https://host.example/chat/page';

const spec = await commands.readFile('node_modules/commonmark-spec/spec.txt');
const examples = extractExamples(spec);
const comparable = examples.filter((example) => !hasRawHtmlOrImage(lexMarkdown(example.markdown)));

/** The examples of the spec text as its own test runner reads them (`→` stands for a tab). */
function extractExamples(text: string): SpecExample[] {
  const found: SpecExample[] = [];
  let section = '';
  const body = text.replace(/\r\n?/g, '\n').replace(/^<!-- END TESTS -->[\s\S]*/m, '');
  for (const match of body.matchAll(/^`{32} example\n([\s\S]*?)^\.\n[\s\S]*?^`{32}$|^#{1,6} *(.*)$/gm)) {
    if (match[2] !== undefined) section = match[2];
    else found.push({ number: found.length + 1, section, markdown: (match[1] ?? '').replace(/→/g, '\t') });
  }
  return found;
}

function hasRawHtmlOrImage(tokens: Token[]): boolean {
  let isFound = false;
  marked.walkTokens(tokens, (token) => {
    if (token.type === 'html' || token.type === 'image') isFound = true;
  });
  return isFound;
}

/**
 * Serializes `content` without the chrome the policy adds to every link and code block: a link's
 * `target`, `rel` and `title` (the destination) and its host badge; the `ac-code` class, language
 * label and final newline of a code block (marked ends the code text with one; the copy source is
 * exact). Hrefs are compared resolved against `DOCUMENT_URL`.
 */
function normalize(content: DocumentFragment): string {
  const holder = document.createElement('div');
  holder.append(content);
  for (const chrome of holder.querySelectorAll('span.ac-host, span.ac-code-lang')) chrome.remove();
  for (const pre of holder.querySelectorAll('pre')) pre.removeAttribute('class');
  for (const code of holder.querySelectorAll('pre > code')) {
    if (code.textContent.endsWith('\n')) code.textContent = code.textContent.slice(0, -1);
  }
  for (const link of holder.querySelectorAll('a')) {
    for (const name of ['target', 'rel', 'title']) link.removeAttribute(name);
    const href = link.getAttribute('href');
    if (href !== null) link.setAttribute('href', new URL(href, DOCUMENT_URL).href);
  }
  return holder.innerHTML;
}

function renderWithMarked(markdown: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = marked.parse(markdown, { async: false });
  return template.content;
}

describe('CommonMark 0.31.2 examples without raw HTML or images render as marked renders them', () => {
  test('the spec has its 652 examples, and the exclusions are among the compared ones', () => {
    expect(examples.length).toBe(652);
    expect(comparable.length).toBe(558);
    const numbers = new Set(comparable.map((example) => example.number));
    expect(Object.keys(POLICY_EXCLUSIONS).filter((number) => !numbers.has(Number(number)))).toEqual([]);
  });

  test.each(comparable.map((example) => [example.number, example.section, example] as const))(
    'example %i (%s)',
    (number, _section, example) => {
      const ours = normalize(renderMarkdown(example.markdown));
      const theirs = normalize(renderWithMarked(example.markdown));
      if (POLICY_EXCLUSIONS[number] === undefined) expect(ours).toBe(theirs);
      else expect(ours, POLICY_EXCLUSIONS[number]).not.toBe(theirs);
    },
  );
});
