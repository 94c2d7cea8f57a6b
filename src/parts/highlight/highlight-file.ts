/**
 * The script-tag highlighter file `dist/agent-chat.highlight.js` (docs/embedding.md, "Sibling
 * files"): highlight.js core with the common languages, as `window.AgentChatHighlight = {
 * highlight }`. `agent-chat.js` fetches it with its integrity the first time a finished code block
 * names a language, and sanitizes what it returns like every other model-derived HTML.
 */
import type {} from './highlight-global.ts';
import { highlightCode } from '../../highlight/index.ts';

window.AgentChatHighlight = Object.freeze({ highlight: highlightCode });
