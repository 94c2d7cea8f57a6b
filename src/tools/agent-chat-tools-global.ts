/**
 * Types of the browser tools script (`agent-chat/agent-chat-tools.js`, a second IIFE loaded beside
 * `agent-chat.js`): the `window.AgentChatTools` global it installs; `AgentChatTools.attach(chat, { tools })`
 * runs a mounted widget's browser tools, and `AgentChat.mount(…, { tools })` finds its runner here.
 */
import type { BusinessCancelled, BusinessFailure } from '../core/index.ts';
import type { attachToolRunner, createMemoryReceiptStore } from '../core/index.ts';
import type { openIndexedDbReceiptStore } from './indexeddb-receipt-store.ts';
import type { attachMountTools, attachTools } from './attach-tools.ts';
import type { mountToolRunner } from './mount-tool-runner.ts';

/** `window.AgentChatTools`, installed (frozen) by `agent-chat-tools.js`. */
export interface AgentChatToolsGlobal {
  /** `attachTools`: runs the page's tools in the handle `AgentChat.mount` returned. */
  attach: typeof attachTools;
  /** `attachMountTools`: what `AgentChat.mount` runs its `tools` option with. */
  attachMount: typeof attachMountTools;
  mountToolRunner: typeof mountToolRunner;
  attachToolRunner: typeof attachToolRunner;
  openIndexedDbReceiptStore: typeof openIndexedDbReceiptStore;
  createMemoryReceiptStore: typeof createMemoryReceiptStore;
  BusinessFailure: typeof BusinessFailure;
  BusinessCancelled: typeof BusinessCancelled;
  /** The package version the file was built from. */
  version: string;
}

declare global {
  interface Window {
    AgentChatTools?: AgentChatToolsGlobal;
  }
}
