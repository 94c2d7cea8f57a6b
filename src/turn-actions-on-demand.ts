import { css, html, nothing } from 'lit';
import type { SiblingTemplating } from './ui/card-templating.ts';
import { renderVisibleText } from './ui/text/render-visible-text.ts';
import type { TurnActions } from './ui/turn-actions.ts';
import type * as turnActionsModule from './ui/turn-actions.ts';

/** What the turn actions' file provides: `src/ui/turn-actions.ts` itself, or the script tag's sibling file. */
export type TurnActionsModule = typeof turnActionsModule;

// The ESM build's: a chunk of its own. The script tag's build drops it (scripts/build/iife-plugins.ts) and its entry provides the sibling file.
let loadModule: () => Promise<TurnActionsModule> = () => import('./ui/turn-actions.ts');
let loading: Promise<TurnActions> | undefined;
let loaded: TurnActions | undefined;

/**
 * Makes `load` the way every `<agent-chat>` gets the turn actions (Copy, the votes): by default a
 * dynamic import of `src/ui/turn-actions.ts` (a chunk of the ESM build); the script tag's entry
 * provides its sibling file `agent-chat.turn-actions.js` (embed/siblings.ts).
 */
export function provideTurnActions(load: () => Promise<TurnActionsModule>): void {
  loadModule = load;
}

/** The turn actions once they have loaded; `undefined` before (then {@link loadTurnActions} gets them). */
export function findTurnActions(): TurnActions | undefined {
  return loaded;
}

/**
 * Loads the turn actions once, with the widget's own Lit. Rejects when their file does not load
 * (network, integrity, CSP); a later call tries again.
 */
export function loadTurnActions(): Promise<TurnActions> {
  loading ??= loadModule().then(
    ({ createTurnActions }) => {
      const templating: SiblingTemplating = { html, nothing, css, renderVisibleText };
      return (loaded = createTurnActions(templating));
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
