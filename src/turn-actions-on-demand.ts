import { css, html, nothing } from 'lit';
import { createSiblingPart } from './sibling-part.ts';
import { renderVisibleText } from './ui/text/render-visible-text.ts';
import type * as turnActionsModule from './ui/turn-actions.ts';

/** What the turn actions' file provides: `src/ui/turn-actions.ts` itself, or the script tag's sibling file. */
export type TurnActionsModule = typeof turnActionsModule;

/**
 * The turn actions (Copy, the votes), rendering with the widget's own Lit: by default a dynamic
 * import of `src/ui/turn-actions.ts` (a chunk of the ESM build); the script tag's entry provides
 * its sibling file `agent-chat.turn-actions.js` (embed/siblings.ts), and its build drops the
 * import (scripts/build/iife-plugins.ts).
 */
const turnActions = createSiblingPart(
  (): Promise<TurnActionsModule> => import('./ui/turn-actions.ts'),
  ({ createTurnActions }) => createTurnActions({ html, nothing, css, renderVisibleText }),
);

export const provideTurnActions = turnActions.provide;
export const findTurnActions = turnActions.find;
export const loadTurnActions = turnActions.load;
