/**
 * The script-tag approval card file `dist/agent-chat.approval.js`: sets
 * `window.AgentChatApprovalCard = { createApprovalCard }`. A sibling file (embed/siblings.ts):
 * `agent-chat.js` fetches it with its integrity when the first approval (or proposal) shows, and
 * renders the card with its own Lit, so this file holds no Lit and creates no Trusted Types policy.
 */
import type {} from '../src/approval-card-global.ts';
import { createApprovalCard } from '../src/ui/approval-card/approval-card.ts';

window.AgentChatApprovalCard = Object.freeze({ createApprovalCard });
