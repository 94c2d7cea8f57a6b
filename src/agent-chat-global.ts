/**
 * Types of the script-tag build (`agent-chat/agent-chat.js`, the IIFE): the `window.AgentChat`
 * global it installs. A TypeScript page that loads the script by tag gets them with
 * `import type {} from 'agent-chat/agent-chat.js'`; the ESM entries never declare the global.
 */
import type { MountFunction } from './mount.ts';
import type { AgentChatLauncherGlobal } from './ui/launcher/launcher-global.ts';

/** `window.AgentChat`, installed (frozen) by the script-tag build. */
export interface AgentChatGlobal {
  mount: MountFunction;
  /** The package version the file was built from. */
  version: string;
}

declare global {
  interface Window {
    AgentChat?: AgentChatGlobal;
  }
  /** Set by `agent-chat.launcher.js`: what `mount({ mode: 'launcher' })` builds the launcher with. */
  var AgentChatLauncher: AgentChatLauncherGlobal | undefined;
}
