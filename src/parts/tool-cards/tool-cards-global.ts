/**
 * Types of the script-tag tool cards file (`agent-chat/agent-chat.tool-cards.js`): the
 * `window.AgentChatToolCards` global it installs, which `agent-chat.js` loads when the transcript
 * first shows a tool call or an approval (src/parts/load-part-file.ts).
 */
import type * as toolCardsModule from '../../ui/tool-cards.ts';

/** What the tool cards' file provides: `src/ui/tool-cards.ts` itself, or the script tag's part file. */
export type ToolCardsModule = typeof toolCardsModule;

declare global {
  interface Window {
    AgentChatToolCards?: ToolCardsModule;
  }
}
