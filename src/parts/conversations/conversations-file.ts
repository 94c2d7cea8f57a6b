/**
 * The script-tag conversations file `dist/agent-chat.conversations.js` (docs/embedding.md,
 * "Conversations"): defines `<agent-chat-conversations>` and sets `window.AgentChatConversations
 * = { create }`, where `create` is `createConversations` of the client core. A sibling file
 * (src/parts/part-table.ts): `agent-chat.js` fetches it with its integrity when the sheet first opens or
 * the page calls `AgentChat.loadConversations()`. It carries its own copy of what it needs (Lit
 * under its own Trusted Types policy name), so `agent-chat.js` pays nothing for it.
 */
import type {} from './conversations-global.ts';
import { createConversations, defineConversationsPanel } from '../../index.ts';

defineConversationsPanel();
window.AgentChatConversations = Object.freeze({ create: createConversations });
