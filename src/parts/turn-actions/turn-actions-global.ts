/**
 * Types of the script-tag turn actions file (`agent-chat/agent-chat.turn-actions.js`): the
 * `window.AgentChatTurnActions` global it installs, which `agent-chat.js` loads when the
 * transcript first shows a finished answer (src/parts/load-part-file.ts).
 */
import type { TurnActionsModule } from './turn-actions-on-demand.ts';

declare global {
  interface Window {
    AgentChatTurnActions?: TurnActionsModule;
  }
}
