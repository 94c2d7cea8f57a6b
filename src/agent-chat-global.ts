/**
 * Types of the script-tag build (`agent-chat/agent-chat.js`, the IIFE): the `window.AgentChat`
 * global it installs. A TypeScript page that loads the script by tag gets them with
 * `import type {} from 'agent-chat/agent-chat.js'`; the ESM entries never declare the global.
 */
import type { AgentChatConversationsGlobal } from './parts/conversations/conversations-global.ts';
import type { MountFunction } from './mount.ts';
import type { AgentChatLauncherGlobal } from './ui/launcher/launcher-global.ts';

/** `window.AgentChat`, installed (frozen) by the script-tag build. */
export interface AgentChatGlobal {
  mount: MountFunction;
  /**
   * Loads the conversations panel's sibling file `agent-chat.conversations.js` (once, with the
   * integrity of this build) and resolves with `AgentChatConversations`; `<agent-chat-conversations>`
   * is defined by then. Rejects when the file does not load (docs/embedding.md, "Conversations").
   */
  loadConversations(): Promise<AgentChatConversationsGlobal>;
  /** The package version the file was built from. */
  version: string;
}

declare global {
  interface Window {
    AgentChat?: AgentChatGlobal;
  }
  /** Set by `agent-chat.launcher.js` (loaded by `mount({ mode: 'launcher' })`): what it builds the launcher with. */
  var AgentChatLauncher: AgentChatLauncherGlobal | undefined;
}
