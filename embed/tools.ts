/**
 * The browser tools script's entry (`dist/agent-chat-tools.js`, a second IIFE, SRI-pinned like the
 * first): sets `window.AgentChatTools` (typed in `src/tools/agent-chat-tools-global.ts`);
 * `AgentChatTools.attach(chat, { tools })` runs a mounted widget's browser tools. Load it beside `agent-chat.js`.
 */
import { version } from '../package.json';
import type {} from '../src/tools/agent-chat-tools-global.ts';
import {
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
  mountToolRunner,
  attachToolRunner,
  openIndexedDbReceiptStore,
  createMemoryReceiptStore,
  BusinessFailure,
  BusinessCancelled,
  version,
});
