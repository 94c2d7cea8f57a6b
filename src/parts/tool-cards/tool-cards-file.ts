/**
 * The script-tag tool cards file `dist/agent-chat.tool-cards.js`: sets
 * `window.AgentChatToolCards = { createToolCard, createApprovalCard }`. A part file
 * (src/parts/part-table.ts): `agent-chat.js` fetches it with its integrity when the transcript
 * first shows a tool call or an approval, and renders the cards with its own Lit, so this file
 * holds no Lit and creates no Trusted Types policy. It carries the name and integrity of the
 * widgets' file `agent-chat.widgets.js` (src/parts/widgets/widgets-on-demand.ts), which a card
 * loads when it first shows a widget.
 */
import type {} from './tool-cards-global.ts';
import { createApprovalCard, createToolCard } from '../../ui/tool-cards.ts';

window.AgentChatToolCards = Object.freeze({ createApprovalCard, createToolCard });
