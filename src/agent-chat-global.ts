/**
 * Types of the script-tag build (`agent-chat/agent-chat.js`, the IIFE): the `window.AgentChat`
 * global it installs. A TypeScript page that loads the script by tag gets them with
 * `import type {} from 'agent-chat/agent-chat.js'`; the ESM entries never declare the global.
 */
import type { mount } from './mount.ts';

/** `window.AgentChat`, installed (frozen) by the script-tag build. */
export interface AgentChatGlobal {
  mount: typeof mount;
  /** The package version the file was built from. */
  version: string;
}

declare global {
  interface Window {
    AgentChat?: AgentChatGlobal;
  }
}
