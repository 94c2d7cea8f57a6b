/**
 * The script-tag build's entry (`dist/agent-chat.js`, one IIFE): defines `<agent-chat>` and sets
 * `window.AgentChat = { mount, loadConversations, version }` (typed in `src/agent-chat-global.ts`).
 */
import { version } from '../package.json';
import type {} from '../src/agent-chat-global.ts';
import { provideConversationsPanel } from '../src/conversations-on-demand.ts';
import type { AgentChatConversationsGlobal } from '../src/conversations-global.ts';
import '../src/define.ts';
import { createDeferredLauncher, type LauncherFactory } from '../src/deferred-launcher.ts';
import type {} from '../src/highlight-global.ts';
import { createMount } from '../src/mount.ts';
import type {} from '../src/tools/agent-chat-tools-global.ts';
import type {} from '../src/tool-cards-global.ts';
import { provideToolCards } from '../src/tool-cards-on-demand.ts';
import type {} from '../src/turn-actions-global.ts';
import { provideTurnActions } from '../src/turn-actions-on-demand.ts';
import type {} from '../src/composer-extras-global.ts';
import { provideComposerExtras } from '../src/composer-extras-on-demand.ts';
import { provideHighlighter } from '../src/highlight-on-demand.ts';
import { loadSibling } from './siblings.ts';

// The launcher, the conversations panel, the tool cards, the turn actions, the attachment tray and the code highlighter are sibling files,
// loaded on first use (embed/siblings.ts); a page may still load any with its own tag first. The
// browser tools are the host's own tag.
const mount = createMount({
  createLauncher: (options) => createDeferredLauncher(loadLauncher(), options),
  findTools: () => window.AgentChatTools?.attachMount,
});
provideConversationsPanel(loadConversations);
provideToolCards(() => loadSibling('tool-cards', () => window.AgentChatToolCards), loadSibling);
provideTurnActions(() => loadSibling('turn-actions', () => window.AgentChatTurnActions));
provideComposerExtras(() => loadSibling('composer-extras', () => window.AgentChatComposerExtras));
provideHighlighter(() => loadSibling('highlight', () => window.AgentChatHighlight?.highlight));
window.AgentChat = Object.freeze({ mount, loadConversations, version });

/** The launcher's factory from `agent-chat.launcher.js`, loaded unless a tag of the page already did. */
function loadLauncher(): Promise<LauncherFactory> {
  return loadSibling('launcher', () => globalThis.AgentChatLauncher?.createLauncher);
}

/** `AgentChatConversations` from `agent-chat.conversations.js`, loaded unless a tag of the page already did. */
function loadConversations(): Promise<AgentChatConversationsGlobal> {
  return loadSibling('conversations', () => window.AgentChatConversations);
}
