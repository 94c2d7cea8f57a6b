import type { BootstrapResponse, RunSnapshot, SnapshotMessage } from '../protocol.ts';
import type { StateListener } from './agent-client-types.ts';
import type { ClientError, ClientState, ConnectionStatus, PendingSend } from './client-state.ts';
import { mergeTranscript } from './merge-transcript.ts';

/** Everything the client knows; `ClientState` is derived from it. */
export interface ClientModel {
  connection: ConnectionStatus;
  sessionId: string | null;
  /** Settled history, oldest first. */
  history: readonly SnapshotMessage[];
  /** One reducer snapshot per run followed in this session, oldest first. */
  runs: readonly RunSnapshot[];
  /** The run `state.run` describes (the active or latest one). */
  followedRunId: string | null;
  pendingSend: PendingSend | null;
  optimistic: SnapshotMessage | null;
  submittingInterruptIds: readonly string[];
  error: ClientError | null;
  bootstrap: BootstrapResponse | null;
  /** The agent version the loaded session is pinned to (new runs in it use it), if known. */
  agentVersionId: string | null;
}

/** Holds the model, derives immutable states and notifies listeners. */
export interface ClientStore {
  model(): ClientModel;
  /** Applies a change and notifies listeners (once, synchronously). */
  update(change: Partial<ClientModel>): void;
  /** Returns the run's snapshot, if the client has it. */
  getRun(runId: string): RunSnapshot | undefined;
  /** Replaces the run's snapshot, or appends it as the newest run. */
  putRun(snapshot: RunSnapshot, change?: Partial<ClientModel>): void;
  getState(): ClientState;
  subscribe(listener: StateListener): () => void;
  /** Forgets every listener (on dispose). */
  clearListeners(): void;
}

/** Returns the model of a client that has done nothing yet. */
export function createInitialClientModel(): ClientModel {
  return {
    connection: 'idle',
    sessionId: null,
    history: [],
    runs: [],
    followedRunId: null,
    pendingSend: null,
    optimistic: null,
    submittingInterruptIds: [],
    error: null,
    bootstrap: null,
    agentVersionId: null,
  };
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

  function update(change: Partial<ClientModel>): void {
    model = { ...model, ...change };
    cached = null;
    const state = getState();
    for (const listener of [...listeners]) {
      try {
        listener(state);
      } catch {
        // One broken subscriber must not starve the rest (or the client) of updates.
      }
    }
  }

  return {
    model: () => model,
    update,
    getRun: (runId) => model.runs.find((run) => run.runId === runId),
    putRun(snapshot, change = {}) {
      const index = model.runs.findIndex((run) => run.runId === snapshot.runId);
      const runs = model.runs.slice();
      if (index < 0) runs.push(snapshot);
      else runs[index] = snapshot;
      update({ ...change, runs });
    },
    getState,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clearListeners: () => listeners.clear(),
  };
}

function deriveState(model: ClientModel): ClientState {
  const transcript = mergeTranscript({ history: model.history, runs: model.runs, optimistic: model.optimistic });
  const followed = model.runs.find((run) => run.runId === model.followedRunId);
  // A decision stays "submitting" until the stream shows the interrupt resolved (read-your-writes).
  const openIds = new Set(transcript.interrupts.filter((i) => i.state === 'open').map((i) => i.id));
  return {
    ...transcript,
    connection: model.connection,
    sessionId: model.sessionId,
    run: followed === undefined ? null : { runId: followed.runId, status: followed.status, lastSeq: followed.lastSeq },
    pendingSend: model.pendingSend,
    submittingInterruptIds: model.submittingInterruptIds.filter((id) => openIds.has(id)),
    error: model.error,
    bootstrap: model.bootstrap,
  };
}
