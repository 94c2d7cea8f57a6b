/**
 * The script-tag build's entry (`dist/agent-chat.js`, one IIFE): defines `<agent-chat>` and sets
 * `window.AgentChat = { mount, version }` (typed in `src/agent-chat-global.ts`).
 */
import { version } from '../package.json';
import type {} from '../src/agent-chat-global.ts';
import '../src/define.ts';
import { createMount } from '../src/mount.ts';

// The launcher is its own file (embed/launcher.ts), asked for when a mount needs it.
const mount = createMount({ findLauncher: () => globalThis.AgentChatLauncher?.createLauncher });
window.AgentChat = Object.freeze({ mount, version });
