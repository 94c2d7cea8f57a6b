/**
 * Types of the script-tag highlighter file (`agent-chat/agent-chat.highlight.js`): the
 * `window.AgentChatHighlight` global it installs.
 */
import type { HighlightCode } from './highlight-on-demand.ts';

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
