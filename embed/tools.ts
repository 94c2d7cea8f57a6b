/**
 * The browser tools script's entry (`dist/agent-chat-tools.js`, a second IIFE, SRI-pinned like the
 * first): sets `window.AgentChatTools` (typed in `src/tools/agent-chat-tools-global.ts`);
 * `AgentChat.mount(…, { tools })` runs its browser tools with it (or `AgentChatTools.attach(chat, { tools })`
 * for a mounted widget). Load it beside `agent-chat.js`, before `mount` runs.
 */
import { version } from '../package.json';
import type {} from '../src/tools/agent-chat-tools-global.ts';
import {
  attachMountTools,
  attachTools,
  attachToolRunner,
  BusinessCancelled,
  BusinessFailure,
  createMemoryReceiptStore,
  mountToolRunner,
  openIndexedDbReceiptStore,
} from '../src/tools/index.ts';

window.AgentChatTools = Object.freeze({
  attach: attachTools,
  attachMount: attachMountTools,
  mountToolRunner,
  attachToolRunner,
  openIndexedDbReceiptStore,
  createMemoryReceiptStore,
  BusinessFailure,
  BusinessCancelled,
  version,
});
