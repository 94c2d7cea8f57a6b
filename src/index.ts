/**
 * The widget's ESM entry: `mount`, the element class and the public types. Importing it defines
 * nothing; `mount` defines `<agent-chat>` on first use, or import `agent-chat/define` yourself.
 */
export { mount } from './esm-mount.ts';
export type { MountedAgentChat } from './mount.ts';
export type { MountOptions, MountStrings } from './mount-options.ts';
export { AgentChatElement } from './ui/agent-chat/agent-chat.ts';
export {
  AgentChatConversationsElement,
  CONVERSATIONS_CLOSE_EVENT,
  defineConversationsPanel,
} from './ui/conversations/conversations-panel.ts';
export type { ConversationsStrings } from './ui/conversations/conversations-strings.ts';
export { createConversations } from './core/client/conversations.ts';
export type { Conversations, ConversationsOptions } from './core/client/conversations.ts';
export {
  CONVERSATIONS_EN,
  CONVERSATIONS_ZH_CN,
  conversationsStringsFor,
} from './ui/conversations/conversations-strings.ts';
export type { AgentChatTheme } from './ui/agent-chat/agent-chat-theme.ts';
export type {
  AgentChatApproveDetail,
  AgentChatErrorDetail,
  AgentChatEventDetails,
  AgentChatEventMap,
  AgentChatEventName,
  AgentChatSendDetail,
} from './ui/agent-chat/agent-chat-events.ts';
export type { AgentChatStrings } from './ui/i18n/en.ts';
export { registerLocale } from './ui/i18n/locale-packs.ts';
export type { LocalePack } from './ui/i18n/locale-packs.ts';
export type { MessageReference, ToolCardRenderer } from './ui/message-list/message-list.ts';
export type { Launcher, LauncherStrings } from './ui/launcher/create-launcher.ts';
export type {
  AgentClient,
  AgentClientHandle,
  ClientError,
  ClientState,
  ConnectionStatus,
  ContextRef,
  SnapshotMessage,
  SnapshotToolCall,
} from './core/index.ts';
