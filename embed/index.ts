/**
 * The script-tag build's entry (`dist/agent-chat.js`, one IIFE): defines `<agent-chat>` and sets
 * `window.AgentChat = { mount, loadConversations, version }` (typed in `src/agent-chat-global.ts`).
 */
import { version } from '../package.json';
import type {} from '../src/agent-chat-global.ts';
import '../src/define.ts';
import { createMount } from '../src/mount.ts';
import { loadConversationsFile } from '../src/parts/conversations/conversations-on-demand.ts';
import { createDeferredLauncher, type LauncherFactory } from '../src/parts/launcher/deferred-launcher.ts';
import { loadPartFile } from '../src/parts/load-part-file.ts';
import type {} from '../src/tools/agent-chat-tools-global.ts';

// The optional parts are files of their own (src/parts/part-table.ts), each loaded on first use by
// its loader in src/parts; a page may still load any with its own tag first. The launcher is built
// here, for `mount`; the browser tools are the host's own tag.
const mount = createMount({
  createLauncher: (options) => createDeferredLauncher(loadLauncher(), options),
  findTools: () => window.AgentChatTools?.attachMount,
});
window.AgentChat = Object.freeze({ mount, loadConversations: loadConversationsFile, version });

/** The launcher's factory from `agent-chat.launcher.js`, loaded unless a tag of the page already did. */
function loadLauncher(): Promise<LauncherFactory> {
  return loadPartFile('launcher', () => globalThis.AgentChatLauncher?.createLauncher);
}
