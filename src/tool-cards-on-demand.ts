import { css, html, nothing, render } from 'lit';
import type { CardTemplating, LoadFile } from './ui/card-templating.ts';
import { markdownBody } from './ui/message-list/markdown-body.ts';
import type { ApprovalCard } from './ui/approval-card/approval-card.ts';
import { createSiblingPart } from './sibling-part.ts';
import { renderVisibleText } from './ui/text/render-visible-text.ts';
import type { ToolCard } from './ui/tool-card/tool-card.ts';
import type * as toolCardsModule from './ui/tool-cards.ts';

/** What the tool cards' file provides: `src/ui/tool-cards.ts` itself, or the script tag's sibling file. */
export type ToolCardsModule = typeof toolCardsModule;

/** The tool cards, rendering with the widget's Lit. */
export interface ToolCards {
  tool: ToolCard;
  approval: ApprovalCard;
}

let providedLoadFile: LoadFile | undefined;

/**
 * The tool cards, which only hosts whose agent calls tools need: by default a dynamic import of
 * `src/ui/tool-cards.ts` (a chunk of the ESM build); the script tag's build drops the import
 * (scripts/build/iife-plugins.ts) and its entry provides the sibling file.
 */
const toolCards = createSiblingPart(
  (): Promise<ToolCardsModule> => import('./ui/tool-cards.ts'),
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
 * Makes `load` the way every `<agent-chat>` gets the tool cards: the script tag's entry provides
 * their sibling file `agent-chat.tool-cards.js` (embed/siblings.ts), and `loadFile`, with which the
 * cards load the files they carry the integrity of (the widgets').
 */
export function provideToolCards(load: () => Promise<ToolCardsModule>, loadFile?: LoadFile): void {
  toolCards.provide(load);
  providedLoadFile = loadFile;
}

/** The tool cards once they have loaded; `undefined` before (then {@link loadToolCards} gets them). */
export const findToolCards = toolCards.find;
/** Loads the tool cards once, with the widget's own Lit; rejects when their file does not load, and a later call tries again. */
export const loadToolCards = toolCards.load;
