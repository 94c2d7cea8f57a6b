/**
 * The script-tag turn actions file `dist/agent-chat.turn-actions.js`: sets
 * `window.AgentChatTurnActions = { createTurnActions }`. A part file (src/parts/part-table.ts):
 * `agent-chat.js` fetches it with its integrity when the transcript first shows a finished answer,
 * and renders the actions with its own Lit, so this file holds no Lit and creates no Trusted Types
 * policy.
 */
import type {} from './turn-actions-global.ts';
import { createTurnActions } from '../../ui/turn-actions.ts';

window.AgentChatTurnActions = Object.freeze({ createTurnActions });
