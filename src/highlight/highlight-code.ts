/**
 * Syntax highlighting of one code block by highlight.js core (as its authors publish it) with the
 * common languages registered: the part `agent-chat.highlight.js` and `agent-chat/highlight`
 * carry (docs/embedding.md, "Sibling files"). Its output is HTML the widget still sanitizes.
 */
import hljs from 'highlight.js/lib/core';
import type { HighlightCode } from '../parts/highlight/highlight-global.ts';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * Code longer than this many characters stays plain. Some grammars take time quadratic in the
 * length on hostile input (20,000 `$` as Java: 3.5 s); at this length the worst seen is 0.2 s,
 * while 5,000 characters of real code take about 10 ms (docs/benchmarks.md, "Code highlighting").
 */
export const HIGHLIGHT_MAX_LENGTH = 5_000;

/**
 * Milliseconds highlighting may take in one burst; it earns back half the time that passes
 * between calls. A call made with no credit left returns `undefined` (that block stays plain), so
 * many hostile blocks cannot add up to seconds either.
 */
export const HIGHLIGHT_BURST_MS = 200;

/** The grammars registered, by highlight.js name. */
const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};

/**
 * The languages highlighted, by highlight.js name; each also answers to its aliases (`ts`, `js`,
 * `py`, `sh`, `html`, `svg`, `cs`, `c++`, `yml`, `md`, `patch`, …).
 */
export const HIGHLIGHT_LANGUAGES: readonly string[] = Object.freeze(Object.keys(LANGUAGES));

/** Our own instance, so a page's configuration of the shared one (a class prefix, say) never changes our output. */
const highlighter = hljs.newInstance();
for (const [name, language] of Object.entries(LANGUAGES)) highlighter.registerLanguage(name, language);

/**
 * Creates a highlighter of code blocks with its own time budget ({@link HIGHLIGHT_BURST_MS}) on
 * the clock `now` (milliseconds; a test injects one). It highlights `code` as `language` (a name
 * or alias, never guessed: there is no auto-detection) and returns HTML of the code's text,
 * escaped, inside `<span class="hljs-…">` elements, or `undefined` when the language is not
 * registered, the code is longer than {@link HIGHLIGHT_MAX_LENGTH}, the budget is spent or
 * highlight.js fails; the code then stays plain. The caller sanitizes the HTML before it is DOM.
 */
export function createCodeHighlighter(now: () => number = () => performance.now()): HighlightCode {
  let credit = HIGHLIGHT_BURST_MS;
  let last = now();
  return (code, language) => {
    const start = now();
    credit = Math.min(HIGHLIGHT_BURST_MS, credit + (start - last) / 2);
    try {
      if (credit <= 0 || code.length > HIGHLIGHT_MAX_LENGTH || !highlighter.getLanguage(language)) return undefined;
      return highlighter.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      return undefined;
    } finally {
      last = now();
      credit -= last - start;
    }
  };
}

/** The highlighter `agent-chat.highlight.js` and `agent-chat/highlight` hand to the widget (see {@link createCodeHighlighter}). */
export const highlightCode: HighlightCode = createCodeHighlighter();
