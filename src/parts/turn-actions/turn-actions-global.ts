/**
 * Types of the script-tag turn actions file (`agent-chat/agent-chat.turn-actions.js`): the
 * `window.AgentChatTurnActions` global it installs, which `agent-chat.js` loads when the
 * transcript first shows a finished answer (src/parts/load-part-file.ts).
 */
import type * as turnActionsModule from '../../ui/turn-actions.ts';

/** What the turn actions' file provides: `src/ui/turn-actions.ts` itself, or the script tag's part file. */
export type TurnActionsModule = typeof turnActionsModule;

declare global {
  interface Window {
    AgentChatTurnActions?: TurnActionsModule;
  }
}
