import type { AnyEventEnvelope, EventEnvelope, RunSnapshot, SnapshotMessage } from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import { createEmptyRunSnapshot, reduceRun } from '../state/run-reducer.ts';
import type { ClientAction, SentText } from './client-actions.ts';
import { runErrorOf } from './client-errors.ts';
import type { ConnectionStatus, PendingSend } from './client-state.ts';
import { createInitialClientModel } from './client-model.ts';
import { mergeById } from './merge-transcript.ts';
import type { ClientModel } from './client-model.ts';

/** Returns whether a followed run's stream should be open: the run is known, not over, and the host is visible and online. */
export function isStreamWanted(
  run: RunSnapshot | undefined,
  signals: { isVisible: boolean; isOnline: boolean },
): run is RunSnapshot {
  return run !== undefined && !isTerminalRunStatus(run.status) && signals.isVisible && signals.isOnline;
}

/**
 * Folds one action into the client's model, returning a new model (the input is never mutated),
 * or the same object when the action changes nothing. Pure: no clock, ids, requests or storage;
 * the client's parts run those effects and dispatch what happened (docs/client.md, "How state changes").
 */
export function reduceClient(model: ClientModel, action: ClientAction): ClientModel {
  switch (action.type) {
    case 'reset':
      return createInitialClientModel();
    case 'identityChanged':
      return { ...createInitialClientModel(), error: action.error };
    case 'bootstrapped': {
      // A new bootstrap clears only its own earlier failure, not e.g. the IDENTITY_CHANGED that caused it.
      const isOwnError = model.bootstrapError !== null && model.error === model.bootstrapError;
      return {
        ...model,
        bootstrap: action.bootstrap,
        bootstrapError: null,
        error: isOwnError ? null : model.error,
        connection: isOwnError ? 'idle' : model.connection,
      };
    }
    case 'bootstrapFailed':
      return { ...model, error: action.error, bootstrapError: action.error, connection: 'error' };
    case 'requestFailed':
      return { ...model, error: action.error };
    case 'streamFailed':
      return { ...model, error: action.error, connection: 'error' };
    case 'streamRetried':
      return { ...model, error: null };
    case 'sessionCleared':
      return { ...createInitialClientModel(), bootstrap: model.bootstrap };
    case 'loadStarted':
      return { ...model, connection: 'connecting' };
    case 'sessionLoaded':
      return {
        ...model,
        sessionId: action.sessionId,
        agentVersionId: action.agentVersionId,
        history: action.history,
        historyToolCalls: action.historyToolCalls,
        historyInterrupts: action.historyInterrupts,
        olderCursor: action.olderCursor,
        isLoadingOlderMessages: false,
        runs: [],
        followedRunId: null,
        optimistic: null,
        pendingSend: null,
        error: null,
        stopping: null,
        discarded: [],
        connection: action.hasActiveRun ? model.connection : 'idle',
      };
    case 'olderPageRequested':
      return model.olderCursor === action.before ? { ...model, isLoadingOlderMessages: true } : model;
    case 'olderPageRead': {
      const { page } = action;
      if (model.olderCursor !== action.before) return model;
      if (page === null) return { ...model, isLoadingOlderMessages: false };
      // By id: a message the transcript already has is never shown twice.
      const history = mergeById(page.history, [model.history], (message) => message.messageId);
      const historyToolCalls = mergeById(page.historyToolCalls, [model.historyToolCalls], (call) => call.toolCallId);
      const historyInterrupts = mergeById(page.historyInterrupts, [model.historyInterrupts], (item) => item.id);
      return {
        ...model,
        history,
        historyToolCalls,
        historyInterrupts,
        olderCursor: page.olderCursor,
        isLoadingOlderMessages: false,
      };
    }
    case 'sessionResumed':
      return { ...model, sessionId: action.sessionId };
    case 'sendStarted':
      return {
        ...withoutRun(model, action.send.replacesRunId),
        pendingSend: pendingSendOf(action.send, 'sending'),
        optimistic: optimisticMessageOf(action.send),
        error: null,
        connection: action.isStreaming ? model.connection : 'connecting',
      };
    case 'runCreated': {
      const inSession = switchSession(model, action.sessionId);
      const withRun = findRun(inSession, action.runId)
        ? inSession
        : withRunSnapshot(inSession, createEmptyRunSnapshot(action.runId, action.sessionId));
      const { stopping } = model;
      return {
        ...withRun,
        pendingSend: null,
        // A Stop pressed while the create was unanswered now knows its run.
        stopping: stopping?.runId === null ? { runId: action.runId } : stopping,
      };
    }
    case 'sendFailed': {
      const { optimistic } = model;
      return {
        ...model,
        pendingSend: pendingSendOf(action.send, 'failed'),
        optimistic: optimistic === null ? null : { ...optimistic, status: 'error' },
        connection: action.isStreaming ? model.connection : 'idle',
        // No run came of the create, so there is nothing left to stop.
        stopping: model.stopping?.runId === null ? null : model.stopping,
      };
    }
    case 'sendExpired':
      return { ...model, pendingSend: pendingSendOf(action.send, 'failed'), error: action.error };
    case 'sendDiscarded':
      return { ...model, pendingSend: null, optimistic: null };
    case 'approvalSubmitted':
      return { ...model, submittingInterruptIds: [...model.submittingInterruptIds, action.interruptId] };
    case 'approvalFailed':
      return {
        ...model,
        submittingInterruptIds: model.submittingInterruptIds.filter((id) => id !== action.interruptId),
      };
    case 'runLoaded': {
      const { snapshot } = action;
      // A run of another session replaces the transcript, its unanswered optimistic message included.
      const inSession =
        snapshot.sessionId === model.sessionId
          ? model
          : { ...switchSession(model, snapshot.sessionId), optimistic: null };
      return settleRun(
        { ...withRunSnapshot(inSession, snapshot), error: runErrorOf(snapshot) ?? model.error },
        snapshot,
      );
    }
    case 'runResynced':
      // The snapshot is the truth: a retry's kept messages go with the state they were kept from.
      return settleRun(
        withoutDiscarded(withRunSnapshot(model, action.snapshot), action.snapshot.runId),
        action.snapshot,
      );
    case 'runFollowed':
      return { ...model, followedRunId: action.runId, connection: followedConnection(model, action) };
    case 'eventReceived':
      return applyEvent(model, action.event);
    case 'streamPhaseChanged':
      return model.connection === action.phase ? model : { ...model, connection: action.phase };
    case 'streamEnded':
      return { ...model, connection: 'idle' };
    case 'hostSignalsChanged':
      return { ...model, connection: action.isOnline ? 'idle' : 'offline' };
    case 'stopRequested':
      return { ...model, stopping: { runId: action.runId } };
    case 'stopFailed':
      return { ...model, stopping: null };
    case 'feedbackKept': {
      const rate = (message: SnapshotMessage): SnapshotMessage =>
        message.messageId === action.messageId ? { ...message, feedback: action.feedback } : message;
      return {
        ...model,
        history: model.history.map(rate),
        runs: model.runs.map((run) => ({ ...run, messages: run.messages.map(rate) })),
      };
    }
    case 'extended':
      return { ...model, extension: action.extension };
  }
}

/** The connection once a run is followed: its stream opens unless the run is over, the host offline or hidden. */
function followedConnection(
  model: ClientModel,
  signals: { runId: string; isVisible: boolean; isOnline: boolean },
): ConnectionStatus {
  const run = findRun(model, signals.runId);
  if (run === undefined || isTerminalRunStatus(run.status)) return 'idle';
  if (!signals.isOnline) return 'offline';
  return signals.isVisible ? 'connecting' : 'idle';
}

/**
 * Folds a stream event into its run; the optimistic message goes once the run echoes it, and a new
 * `RUN_ERROR` is shown. A message discarded for a retry is kept until the retry's answer streams.
 */
function applyEvent(model: ClientModel, event: EventEnvelope): ClientModel {
  const run = findRun(model, event.runId) ?? createEmptyRunSnapshot(event.runId, event.sessionId);
  const next = reduceRun(run, event, model.extension?.foldRunEvent);
  if (next === run) return model;
  const { optimistic } = model;
  const isEchoed = optimistic !== null && next.messages.some((m) => m.clientMessageId === optimistic.clientMessageId);
  const runError = next.error !== null && run.error === null ? runErrorOf(next) : null;
  const applied = {
    ...withRunSnapshot(model, next),
    optimistic: isEchoed ? null : optimistic,
    error: runError ?? model.error,
  };
  return settleRun(keepDiscarded(applied, run, event as AnyEventEnvelope), next);
}

/** Keeps the message a `MESSAGE_DISCARDED{attempt_retry}` retracts; drops the run's kept ones once new text streams. */
function keepDiscarded(model: ClientModel, before: RunSnapshot, event: AnyEventEnvelope): ClientModel {
  if (event.type === 'TEXT_MESSAGE_CONTENT') return withoutDiscarded(model, event.runId);
  if (event.type !== 'MESSAGE_DISCARDED') return model;
  const { messageId, reason } = event.data;
  const index = before.messages.findIndex((message) => message.messageId === messageId);
  const message = before.messages[index];
  if (reason !== 'attempt_retry' || message === undefined) return model;
  return { ...model, discarded: [...model.discarded, { runId: event.runId, index, message }] };
}

function withoutDiscarded(model: ClientModel, runId: string): ClientModel {
  return model.discarded.some((kept) => kept.runId === runId)
    ? { ...model, discarded: model.discarded.filter((kept) => kept.runId !== runId) }
    : model;
}

/** Once a run is over, its Stop has settled and nothing of it is retried any more. */
function settleRun(model: ClientModel, run: RunSnapshot): ClientModel {
  if (!isTerminalRunStatus(run.status)) return model;
  const settled = withoutDiscarded(model, run.runId);
  return settled.stopping?.runId === run.runId ? { ...settled, stopping: null } : settled;
}

function findRun(model: ClientModel, runId: string): RunSnapshot | undefined {
  return model.runs.find((run) => run.runId === runId);
}

/** Replaces the run's snapshot, or appends it as the newest run. */
function withRunSnapshot(model: ClientModel, snapshot: RunSnapshot): ClientModel {
  const index = model.runs.findIndex((run) => run.runId === snapshot.runId);
  const runs = model.runs.slice();
  if (index < 0) runs.push(snapshot);
  else runs[index] = snapshot;
  return { ...model, runs };
}

/**
 * The model without what run `runId` showed (a run answered again by a retry leaves the
 * transcript; no run when undefined). It ended, so nothing of it is kept as discarded any more (`settleRun`).
 */
function withoutRun(model: ClientModel, runId: string | undefined): ClientModel {
  return {
    ...model,
    runs: model.runs.filter((run) => run.runId !== runId),
    history: model.history.filter((message) => message.runId !== runId),
    historyToolCalls: model.historyToolCalls.filter((call) => call.runId !== runId),
    historyInterrupts: model.historyInterrupts.filter((item) => item.runId !== runId),
  };
}

/** The model moved to another session (its history and runs dropped), or the same model when it is already there. */
function switchSession(model: ClientModel, sessionId: string): ClientModel {
  return sessionId === model.sessionId
    ? model
    : {
        ...model,
        sessionId,
        history: [],
        historyToolCalls: [],
        historyInterrupts: [],
        olderCursor: null,
        isLoadingOlderMessages: false,
        runs: [],
      };
}

function pendingSendOf(send: SentText, status: PendingSend['status']): PendingSend {
  return { clientMessageId: send.clientMessageId, text: send.text, status };
}

/** The user's message shown while its create is unanswered (`messageId` = `clientMessageId`). */
function optimisticMessageOf(send: SentText): SnapshotMessage {
  return {
    messageId: send.clientMessageId,
    clientMessageId: send.clientMessageId,
    role: 'user',
    content: send.text,
    status: 'complete',
  };
}
