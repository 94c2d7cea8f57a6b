/**
 * The script-tag tool cards file `dist/agent-chat.tool-cards.js`: sets
 * `window.AgentChatToolCards = { createToolCard, createApprovalCard }`. A sibling file
 * (embed/siblings.ts): `agent-chat.js` fetches it with its integrity when the transcript first
 * shows a tool call or an approval, and renders the cards with its own Lit, so this file holds no
 * Lit and creates no Trusted Types policy. It carries the name and integrity of the widgets' file
 * `agent-chat.widgets.js` (filled in by the build), which a card loads when it first shows a widget.
 */
import type {} from '../src/tool-cards-global.ts';
import type {} from '../src/widgets-global.ts';
import { provideWidgets } from '../src/ui/tool-card/widgets-on-demand.ts';
import { createApprovalCard, createToolCard } from '../src/ui/tool-cards.ts';

/** Filled in by the build (scripts/build/build-siblings.ts) with the widgets' file it just wrote. */
declare const __AGENT_CHAT_WIDGETS_FILE__: { fileName: string; integrity: string };

provideWidgets((templating) => {
  const { loadFile } = templating;
  if (loadFile === undefined) return Promise.reject(new Error('AgentChat: the widgets file needs agent-chat.js'));
  return loadFile(__AGENT_CHAT_WIDGETS_FILE__, () => window.AgentChatWidgets);
});
window.AgentChatToolCards = Object.freeze({ createApprovalCard, createToolCard });
