import type { createLauncher } from './create-launcher.ts';

/** `globalThis.AgentChatLauncher`, installed (frozen) by the script tag's launcher file `agent-chat.launcher.js`. */
export interface AgentChatLauncherGlobal {
  createLauncher: typeof createLauncher;
}
