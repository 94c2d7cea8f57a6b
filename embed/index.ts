/**
 * The script-tag build's entry (`dist/agent-chat.js`, one IIFE): defines `<agent-chat>` and sets
 * `window.AgentChat = { mount, version }` (typed in `src/agent-chat-global.ts`).
 */
import { version } from '../package.json';
import type {} from '../src/agent-chat-global.ts';
import '../src/define.ts';
import { createMount } from '../src/mount.ts';
import type {} from '../src/tools/agent-chat-tools-global.ts';

// The launcher and the browser tools are files of their own (embed/launcher.ts, embed/tools.ts),
// asked for when a mount needs them.
const mount = createMount({
  findLauncher: () => globalThis.AgentChatLauncher?.createLauncher,
  findTools: () => window.AgentChatTools?.attachMount,
});
window.AgentChat = Object.freeze({ mount, version });
