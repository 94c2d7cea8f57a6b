import type { ReactiveControllerHost } from 'lit';
import type { ClientState } from '../../core/index.ts';
import { findTurnActions, loadTurnActions } from '../../turn-actions-on-demand.ts';
import type { TurnActions } from '../turn-actions.ts';

/**
 * Loads the turn actions (a file of their own: src/turn-actions-on-demand.ts) when the transcript
 * first shows a finished answer or has older messages to load, and renders the host again once
 * they have arrived. Until then (and for good when the file does not load) a turn shows no
 * actions, an answer no sources, and older messages do not load.
 */
export class TurnActionsController {
  #host: ReactiveControllerHost;
  #onArrive: (actions: TurnActions) => void;
  #hasArrived = false;
  #isLoading = false;

  /** `onArrive` takes what the actions bring beside their rendering (their styles, the older messages' loader), once. */
  constructor(host: ReactiveControllerHost, onArrive: (actions: TurnActions) => void) {
    this.#host = host;
    this.#onArrive = onArrive;
  }

  /** The actions for a render of `state`, or undefined while they load. */
  actionsFor(state: Pick<ClientState, 'messages' | 'hasOlderMessages'>): TurnActions | undefined {
    const actions = findTurnActions();
    if (actions) {
      if (!this.#hasArrived) this.#onArrive(actions);
      this.#hasArrived = true;
      return actions;
    }
    if (
      !this.#isLoading &&
      (state.hasOlderMessages ||
        state.messages.some((message) => message.role === 'assistant' && message.status !== 'streaming'))
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
