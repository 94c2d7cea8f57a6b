import type { ReactiveControllerHost } from 'lit';
import type { ClientState } from '../../core/index.ts';
import { findTurnActions, loadTurnActions } from '../../parts/turn-actions/turn-actions-on-demand.ts';
import { createPartForRender } from '../sibling-part-loader.ts';
import type { TurnActions } from '../turn-actions.ts';

/** The turn actions for a render of `state`, or undefined while they load. */
export type TurnActionsFor = (state: Pick<ClientState, 'messages' | 'hasOlderMessages'>) => TurnActions | undefined;

/**
 * Loads the turn actions (a file of their own: src/parts/turn-actions/turn-actions-on-demand.ts) when the transcript
 * first shows a finished answer or has older messages to load, and renders the host again once
 * they have arrived; `onArrive` takes what they bring beside their rendering (their styles, the
 * older messages' loader), once. Until then (and for good when the file does not load) a turn
 * shows no actions, an answer no sources, and older messages do not load.
 */
export function createTurnActionsFor(
  host: ReactiveControllerHost,
  onArrive: (actions: TurnActions) => void,
): TurnActionsFor {
  const partFor = createPartForRender(host, { find: findTurnActions, load: loadTurnActions }, onArrive);
  return (state) =>
    partFor(
      state.hasOlderMessages ||
        state.messages.some((message) => message.role === 'assistant' && message.status !== 'streaming'),
    );
}
