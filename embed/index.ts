/**
 * The script-tag build's entry (`dist/agent-chat.js`, one IIFE): defines `<agent-chat>` and sets
 * `window.AgentChat = { mount, version }`.
 */
import { version } from '../package.json';
import '../src/define.ts';
import { mount } from '../src/index.ts';

/** The global the script-tag build installs. */
export interface AgentChatGlobal {
  mount: typeof mount;
  version: string;
}

declare global {
  interface Window {
    AgentChat?: AgentChatGlobal;
  }
}

window.AgentChat = Object.freeze({ mount, version });
