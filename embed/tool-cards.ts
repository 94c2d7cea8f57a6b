/**
 * The script-tag tool cards file `dist/agent-chat.tool-cards.js`: sets
 * `window.AgentChatToolCards = { createToolCard, createApprovalCard }`. A sibling file
 * (embed/siblings.ts): `agent-chat.js` fetches it with its integrity when the transcript first
 * shows a tool call or an approval, and renders the cards with its own Lit, so this file holds no
 * Lit and creates no Trusted Types policy.
 */
import type {} from '../src/tool-cards-global.ts';
import { createApprovalCard, createToolCard } from '../src/ui/tool-cards.ts';

window.AgentChatToolCards = Object.freeze({ createApprovalCard, createToolCard });
