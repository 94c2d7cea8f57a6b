import type { CSSResult, ReactiveControllerHost } from 'lit';
import type { SnapshotMessage } from '../../core/index.ts';
import { findTurnActions, loadTurnActions } from '../../turn-actions-on-demand.ts';
import type { TurnActions } from '../turn-actions.ts';

/**
 * Loads the turn actions (a file of their own: src/turn-actions-on-demand.ts) when the transcript
 * first shows a finished answer, and renders the host again once they have arrived. Until then
 * (and for good when the file does not load) a turn shows no actions and an answer no sources.
 */
export class TurnActionsController {
  #host: ReactiveControllerHost;
  #adoptStyles: (styles: CSSResult[]) => void;
  #hasStyles = false;
  #isLoading = false;

  /** `adoptStyles` adds the actions' styles to the host's own (once, when they arrive). */
  constructor(host: ReactiveControllerHost, adoptStyles: (styles: CSSResult[]) => void) {
    this.#host = host;
    this.#adoptStyles = adoptStyles;
  }

  /** The actions for a render of `messages`, or undefined while they load (started by a finished answer). */
  actionsFor(messages: readonly SnapshotMessage[]): TurnActions | undefined {
    const actions = findTurnActions();
    if (actions) {
      if (!this.#hasStyles) this.#adoptStyles([actions.styles]);
      this.#hasStyles = true;
      return actions;
    }
    if (
      !this.#isLoading &&
      messages.some((message) => message.role === 'assistant' && message.status !== 'streaming')
    ) {
      this.#isLoading = true;
      loadTurnActions().then(
        () => this.#host.requestUpdate(),
        () => undefined,
      );
    }
    return undefined;
  }
}
