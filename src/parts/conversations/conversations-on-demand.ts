/**
 * How `<agent-chat>` gets the conversations panel when `<agent-chat-conversations>` is not defined
 * yet: in the script tag's build it loads the part file `agent-chat.conversations.js`
 * (src/parts/load-part-file.ts), so the header offers the sheet at once and the file loads on first
 * open; an ESM host defines the panel itself.
 */
import { loadPartFile } from '../load-part-file.ts';
import type { AgentChatConversationsGlobal } from './conversations-global.ts';

/** `AgentChatConversations` from `agent-chat.conversations.js`, loaded unless a tag of the page already did. */
export function loadConversationsFile(): Promise<AgentChatConversationsGlobal> {
  return loadPartFile('conversations', () => window.AgentChatConversations);
}

/** The loader that defines `<agent-chat-conversations>` once it resolves, or `undefined` (the ESM build: the host defines the panel). */
export function findConversationsPanelLoader(): (() => Promise<unknown>) | undefined {
  return __SCRIPT_TAG_BUILD__ ? loadConversationsFile : undefined;
}
