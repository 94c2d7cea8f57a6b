/**
 * `agent-chat/highlight`: syntax highlighting of code blocks for an ESM host (docs/embedding.md,
 * "Code highlighting"). The package's other entries never import highlight.js; a host that wants
 * highlighting imports this entry and calls {@link enableHighlighting} once, before mounting. The
 * script tag's build loads the same highlighter as its sibling file `agent-chat.highlight.js`.
 */
import { provideHighlighter } from '../parts/highlight/highlight-on-demand.ts';
import { highlightCode } from './highlight-code.ts';

export { HIGHLIGHT_BURST_MS, HIGHLIGHT_LANGUAGES, HIGHLIGHT_MAX_LENGTH, highlightCode } from './highlight-code.ts';
export type { HighlightCode } from '../parts/highlight/highlight-global.ts';

/**
 * Turns on syntax highlighting for every `<agent-chat>` of the page: a code block that names a
 * registered language highlights once it is finished, through the widget's sanitizer like all
 * model-derived HTML. Blocks rendered before the call stay plain.
 */
export function enableHighlighting(): void {
  provideHighlighter(() => Promise.resolve(highlightCode));
}
