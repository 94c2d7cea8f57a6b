/**
 * A forwarder to src/parts/highlight/highlight-on-demand.ts, for the Markdown renderer's files that
 * still import it from here (src/ui/message-list/markdown-body.ts,
 * src/ui/markdown/highlight-code-block.ts, being reworked on another branch): delete it once they
 * import the part's loader directly.
 */
export { findHighlighter, provideHighlighter } from './parts/highlight/highlight-on-demand.ts';
export type { HighlightCode } from './parts/highlight/highlight-on-demand.ts';
