import { css, html, nothing, render } from 'lit';
import type { ApprovalCard } from '../../ui/approval-card/approval-card.ts';
import type { CardTemplating, LoadFile } from '../../ui/card-templating.ts';
import { markdownBody } from '../../ui/message-list/markdown-body.ts';
import { renderVisibleText } from '../../ui/text/render-visible-text.ts';
import type { ToolCard } from '../../ui/tool-card/tool-card.ts';
import { loadPartFile } from '../load-part-file.ts';
import { createSiblingPart } from '../sibling-part.ts';
import type { ToolCardsModule } from './tool-cards-global.ts';

/** The tool cards, rendering with the widget's Lit. */
export interface ToolCards {
  tool: ToolCard;
  approval: ApprovalCard;
}

// How the cards load the files they carry the integrity of (the widgets'): in the script tag's build
// through agent-chat.js, whose Trusted Types policy lets the file in.
let providedLoadFile: LoadFile | undefined = __SCRIPT_TAG_BUILD__ ? loadPartFile : undefined;

/**
 * The tool cards, which only hosts whose agent calls tools need: a dynamic import of
 * `src/ui/tool-cards.ts` (a chunk of the ESM build), or in the script tag's build their part file
 * `agent-chat.tool-cards.js` (src/parts/load-part-file.ts).
 */
const toolCards = createSiblingPart(
  __SCRIPT_TAG_BUILD__
    ? () => loadPartFile('tool-cards', () => window.AgentChatToolCards)
    : (): Promise<ToolCardsModule> => import('../../ui/tool-cards.ts'),
  ({ createToolCard, createApprovalCard }): ToolCards => {
    const templating: CardTemplating = {
      html,
      nothing,
      css,
      renderVisibleText,
      render,
      markdownBody,
      loadFile: providedLoadFile,
    };
    return { tool: createToolCard(templating), approval: createApprovalCard(templating) };
  },
);

/**
 * Makes `load` the way every `<agent-chat>` gets the tool cards, and `loadFile` the way the cards
 * load the files they carry the integrity of (a test's stand-in for the script tag's part file).
 */
export function provideToolCards(load: () => Promise<ToolCardsModule>, loadFile?: LoadFile): void {
  toolCards.provide(load);
  providedLoadFile = loadFile;
}

/** The tool cards once they have loaded; `undefined` before (then {@link loadToolCards} gets them). */
export const findToolCards = toolCards.find;
/** Loads the tool cards once, with the widget's own Lit; rejects when their file does not load, and a later call tries again. */
export const loadToolCards = toolCards.load;
