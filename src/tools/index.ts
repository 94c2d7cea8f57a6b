/**
 * `agent-chat/tools`: browser tools for pages (docs/client.md, "Browser tools"): the runner and its
 * in-memory store (also in `agent-chat/core`), the opt-in IndexedDB store, `mountToolRunner` (a
 * runner per identity of a client) and `attachTools`, which runs them in a mounted widget. Browser
 * only; importing it has no side effect.
 */
export { attachToolRunner, BusinessCancelled, BusinessFailure, createMemoryReceiptStore } from '../core/index.ts';
export type {
  BrowserTool,
  BrowserToolCall,
  BrowserToolContext,
  FinalReceipt,
  ReconciledOutcome,
  ToolReceipt,
  ToolReceiptStore,
  ToolRunner,
  ToolRunnerDiagnostic,
  ToolRunnerOptions,
  ToolRunnerStrings,
} from '../core/index.ts';
export { EN_TOOL_RUNNER_STRINGS } from '../core/index.ts';
export { openIndexedDbReceiptStore } from './indexeddb-receipt-store.ts';
export type { IndexedDbReceiptStoreOptions } from './indexeddb-receipt-store.ts';
export { mountToolRunner } from './mount-tool-runner.ts';
export { attachMountTools, attachTools } from './attach-tools.ts';
export type { AttachMountTools, AttachToolsOptions, MountToolsOptions, ToolsHost } from './attach-tools.ts';
export { pickToolRunnerStrings, ZH_CN_TOOL_RUNNER_STRINGS } from './tool-runner-zh-cn.ts';
export type { MountedToolRunner, MountToolRunnerOptions } from './mount-tool-runner.ts';
