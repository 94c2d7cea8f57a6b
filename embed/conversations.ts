/**
 * The script-tag conversations file `dist/agent-chat.conversations.js` (docs/embedding.md,
 * "Conversations"): defines `<agent-chat-conversations>` and sets `window.AgentChatConversations
 * = { create }`, where `create` is `createConversations` of the client core. It carries its own
 * copy of what it needs, so `agent-chat.js` pays nothing for it and the tags may load in either
 * order; a page that wants the panel loads it (SRI-pinned, like the widget) and places it.
 */
import type {} from '../src/conversations-global.ts';
import { createConversations, defineConversationsPanel } from '../src/index.ts';

defineConversationsPanel();
window.AgentChatConversations = Object.freeze({ create: createConversations });
