/**
 * The script-tag build's entry (`dist/agent-chat.js`, one IIFE): defines `<agent-chat>` and sets
 * `window.AgentChat = { mount, version }` (typed in `src/agent-chat-global.ts`).
 */
import { version } from '../package.json';
import type {} from '../src/agent-chat-global.ts';
import '../src/define.ts';
import { mount } from '../src/index.ts';

window.AgentChat = Object.freeze({ mount, version });
