import { css, html, nothing } from 'lit';
import { loadPartFile } from '../load-part-file.ts';
import { createSiblingPart } from '../sibling-part.ts';
import { renderVisibleText } from '../../ui/text/render-visible-text.ts';
import type { TurnActionsModule } from './turn-actions-global.ts';

/**
 * The turn actions (Copy, the votes), rendering with the widget's own Lit: a dynamic import of
 * `src/ui/turn-actions.ts` (a chunk of the ESM build), or in the script tag's build its part file
 * `agent-chat.turn-actions.js` (src/parts/load-part-file.ts).
 */
const turnActions = createSiblingPart(
  __SCRIPT_TAG_BUILD__
    ? () => loadPartFile('turn-actions', () => window.AgentChatTurnActions)
    : (): Promise<TurnActionsModule> => import('../../ui/turn-actions.ts'),
  ({ createTurnActions }) => createTurnActions({ html, nothing, css, renderVisibleText }),
);

export const findTurnActions = turnActions.find;
export const loadTurnActions = turnActions.load;
