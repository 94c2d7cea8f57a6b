/**
 * Types of the script-tag tool cards file (`agent-chat/agent-chat.tool-cards.js`): the
 * `window.AgentChatToolCards` global it installs, which `agent-chat.js` loads when the transcript
 * first shows a tool call or an approval (src/parts/load-part-file.ts).
 */
import type { ToolCardsModule } from './tool-cards-on-demand.ts';

declare global {
  interface Window {
    AgentChatToolCards?: ToolCardsModule;
  }
}
