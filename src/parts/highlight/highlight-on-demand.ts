/**
 * How `<agent-chat>` gets its code highlighter (docs/embedding.md, "Code highlighting"): the
 * script tag's build loads its part file `agent-chat.highlight.js` (src/parts/load-part-file.ts),
 * an ESM host calls `enableHighlighting()` of `agent-chat/highlight`. Without either, code stays
 * plain. Nothing loads until a finished code block names a language.
 */
import { loadPartFile } from '../load-part-file.ts';
import type { HighlightCode } from './highlight-global.ts';

let load: (() => Promise<HighlightCode>) | undefined = __SCRIPT_TAG_BUILD__
  ? () => loadPartFile('highlight', () => window.AgentChatHighlight?.highlight)
  : undefined;
let highlighter: HighlightCode | undefined;
/** What to run again once the highlighter has arrived (each once, however often it asked). */
const waiting = new Set<() => void>();

/** Makes `next` the way code blocks get their highlighter (once, on the first block that names a language). */
export function provideHighlighter(next: () => Promise<HighlightCode>): void {
  load = next;
}

/**
 * The highlighter once it has arrived. Before that returns `undefined`, starts loading it (once)
 * and runs `onLoad` when the load has settled; a highlighter that did not load is reported with
 * `reportError` and not asked for again (code then stays plain).
 */
export function findHighlighter(onLoad: () => void): HighlightCode | undefined {
  if (highlighter || !load) return highlighter;
  if (waiting.size === 0) {
    load()
      .then((loaded) => {
        highlighter = loaded;
      }, reportError)
      .finally(() => {
        load = undefined;
        for (const callback of waiting) callback();
        waiting.clear();
      });
  }
  waiting.add(onLoad);
  return undefined;
}
