/**
 * The script-tag conversations file `dist/agent-chat.conversations.js` (docs/embedding.md,
 * "Conversations"): defines `<agent-chat-conversations>` and sets `window.AgentChatConversations
 * = { create }`, where `create` is `createConversations` of the client core. A sibling file
 * (embed/siblings.ts): `agent-chat.js` fetches it with its integrity when the sheet first opens or
 * the page calls `AgentChat.loadConversations()`. It carries its own copy of what it needs (Lit
 * under its own Trusted Types policy name), so `agent-chat.js` pays nothing for it.
 */
import type {} from '../src/conversations-global.ts';
import { createConversations, defineConversationsPanel } from '../src/index.ts';

defineConversationsPanel();
window.AgentChatConversations = Object.freeze({ create: createConversations });
