/**
 * Types of the script-tag highlighter file (`agent-chat/agent-chat.highlight.js`): the
 * `window.AgentChatHighlight` global it installs.
 */

/**
 * Highlights one code block's source as `language` into HTML (the text escaped, inside
 * `<span class="hljs-…">`), or returns `undefined` when it cannot (the block stays plain).
 */
export type HighlightCode = (code: string, language: string) => string | undefined;

/** `window.AgentChatHighlight`, installed (frozen) by `agent-chat.highlight.js`. */
export interface AgentChatHighlightGlobal {
  /** Highlights one code block as HTML for the widget's sanitizer, or `undefined` (the block stays plain). */
  highlight: HighlightCode;
}

declare global {
  interface Window {
    AgentChatHighlight?: AgentChatHighlightGlobal;
  }
}
