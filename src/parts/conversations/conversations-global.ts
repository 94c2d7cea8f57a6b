/**
 * Types of the script-tag conversations file (`agent-chat/agent-chat.conversations.js`): the
 * `window.AgentChatConversations` global it installs beside `<agent-chat-conversations>`.
 */
import type { createConversations } from '../../core/client/conversations.ts';

/** `window.AgentChatConversations`, installed (frozen) by `agent-chat.conversations.js`. */
export interface AgentChatConversationsGlobal {
  /** `createConversations({ client })`: the conversations of a mounted widget's client (`chat.client`). */
  create: typeof createConversations;
}

declare global {
  interface Window {
    AgentChatConversations?: AgentChatConversationsGlobal;
  }
}
