import type { RunSnapshot } from '../protocol.ts';
import type { StateListener } from './agent-client-types.ts';
import type { ClientAction } from './client-actions.ts';
import { createInitialClientModel } from './client-model.ts';
import type { ClientModel } from './client-model.ts';
import { reduceClient } from './client-reducer.ts';
import type { ClientState } from './client-state.ts';
import { runErrorOf } from './client-errors.ts';
import { mergeTranscript } from './merge-transcript.ts';

/** Holds the model, changes it only through `reduceClient`, derives immutable states and notifies listeners. */
export interface ClientStore {
  model(): ClientModel;
  /** Folds `action` into the model and, when it changed, notifies listeners (once, synchronously). */
  dispatch(action: ClientAction): void;
  /** Returns the run's snapshot, if the client has it. */
  getRun(runId: string): RunSnapshot | undefined;
  getState(): ClientState;
  subscribe(listener: StateListener): () => void;
  /** Forgets every listener (on dispose). */
  clearListeners(): void;
}

/** The state of a client that has done nothing yet. */
export function createInitialClientState(): ClientState {
  return deriveState(createInitialClientModel());
}

/**
 * Creates the store. A state is derived lazily and cached until the next change, so `getState()`
 * returns the same object between changes. A listener that throws does not stop the others.
 */
export function createClientStore(): ClientStore {
  let model = createInitialClientModel();
  let cached: ClientState | null = null;
  const listeners = new Set<StateListener>();

  function getState(): ClientState {
    cached ??= deriveState(model);
    return cached;
  }

  return {
    model: () => model,
    dispatch(action) {
      const next = reduceClient(model, action);
      if (next === model) return;
      model = next;
      cached = null;
      const state = getState();
      for (const listener of [...listeners]) {
        try {
          listener(state);
        } catch {
          // One broken subscriber must not starve the rest (or the client) of updates.
        }
      }
    },
    getRun: (runId) => model.runs.find((run) => run.runId === runId),
    getState,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clearListeners: () => listeners.clear(),
  };
}

function deriveState(model: ClientModel): ClientState {
  const transcript = mergeTranscript(model);
  const followed = model.runs.find((run) => run.runId === model.followedRunId);
  // A decision stays "submitting" until the stream shows the interrupt resolved (read-your-writes).
  const openIds = new Set(transcript.interrupts.filter((i) => i.state === 'open').map((i) => i.id));
  return {
    ...transcript,
    connection: model.connection,
    sessionId: model.sessionId,
    hasOlderMessages: model.olderCursor !== null,
    isLoadingOlderMessages: model.isLoadingOlderMessages,
    run: followed === undefined ? null : { runId: followed.runId, status: followed.status, lastSeq: followed.lastSeq },
    pendingSend: model.pendingSend,
    submittingInterruptIds: model.submittingInterruptIds.filter((id) => openIds.has(id)),
    error: model.error,
    bootstrap: model.bootstrap,
    isStopping: model.stopping !== null,
    discardedMessageIds: model.discarded.map((kept) => kept.message.messageId),
    runErrors: model.runs.flatMap((run) => runErrorOf(run) ?? []),
    toolRunner: model.extension?.toolRunner ?? null,
    toolStops: Object.fromEntries(
      model.runs.flatMap(({ outcome }) =>
        outcome?.type === 'stopped' && outcome.toolCallId ? [[outcome.toolCallId, outcome.reason]] : [],
      ),
    ),
    notices: followed?.notices ?? [],
  };
}
