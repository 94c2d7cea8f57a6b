import type { EventEnvelope, RunResource, RunSnapshot } from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import { agentFailure } from '../transport/agent-error.ts';
import type { ClientContext } from './client-context.ts';
import { isStreamWanted } from './client-reducer.ts';
import { runResumeLoop } from './resume-loop.ts';

/** Follows at most one run at a time and folds its events into the store. */
export interface RunFollower {
  /** Makes `runId` the followed run and streams it unless it is terminal, hidden or offline. */
  follow(runId: string): void;
  /** Loads the run's snapshot into the store (switching session if needed), then follows it. */
  attach(runId: string): Promise<void>;
  /** Closes the stream (the run itself goes on on the server). */
  stop(): void;
  /** True while a stream loop runs. */
  isStreaming(): boolean;
  /** Applies a change of the host's visibility or network state, closing or reopening the stream (no-op when nothing changed). */
  setHostSignals(signals: { isVisible?: boolean; isOnline?: boolean }): void;
}

/**
 * Creates the follower. Events go through the shared reducer, one snapshot per run; a resync
 * replaces the run's snapshot wholesale. The stream's fatal errors reach `context.fail`.
 */
export function createRunFollower(context: ClientContext): RunFollower {
  const { store, persistence, transport, settings } = context;
  let loop: AbortController | null = null;
  let isVisible = settings.visibility ?? true;
  let isOnline = settings.online ?? true;

  function applyEvent(event: EventEnvelope): void {
    const before = store.getRun(event.runId);
    store.dispatch({ type: 'eventReceived', event });
    const after = store.getRun(event.runId);
    if (after === undefined || after === before) return;
    settings.onEvent?.(event);
    if (isTerminalRunStatus(after.status)) persistence.clearActiveRun();
  }

  function stop(): void {
    loop?.abort();
    loop = null;
  }

  function follow(runId: string): void {
    stop();
    store.dispatch({ type: 'runFollowed', runId, isVisible, isOnline });
    const run = store.getRun(runId);
    if (!isStreamWanted(run, { isVisible, isOnline })) return;
    const controller = new AbortController();
    loop = controller;
    const stream = store.model().bootstrap?.stream;
    // The loop takes its clock, jitter source and backoff from the client's settings.
    runResumeLoop({
      ...settings,
      transport,
      runId,
      start: { lastSeq: run.lastSeq, cursor: run.resumeCursor },
      onEvent: applyEvent,
      onSnapshot: (resource) => store.dispatch({ type: 'runResynced', snapshot: fromRunResource(resource) }),
      onPhase: (phase) => store.dispatch({ type: 'streamPhaseChanged', phase }),
      idleTimeoutMs: settings.idleTimeoutMs ?? (stream?.clientIdleTimeoutSec ?? 45) * 1000,
      signal: controller.signal,
    }).then(
      () => {
        if (loop !== controller) return;
        loop = null;
        persistence.clearActiveRun();
        store.dispatch({ type: 'streamEnded' });
      },
      (error: unknown) => {
        if (controller.signal.aborted || loop !== controller) return;
        loop = null;
        context.fail(error, { type: 'streamFailed' });
      },
    );
  }

  async function attach(runId: string): Promise<void> {
    store.dispatch({ type: 'loadStarted' });
    const response = await context.get<RunResource>(`/runs/${encodeURIComponent(runId)}`);
    if (response.body === null)
      throw agentFailure('INVALID_RESPONSE', { status: response.status, requestId: response.requestId });
    const snapshot = fromRunResource(response.body);
    store.dispatch({ type: 'runLoaded', snapshot });
    if (!isTerminalRunStatus(snapshot.status)) persistence.writeActiveRun({ sessionId: snapshot.sessionId, runId });
    follow(runId);
  }

  return {
    follow,
    attach,
    stop,
    isStreaming: () => loop !== null,
    setHostSignals(signals) {
      const next = { isVisible, isOnline, ...signals };
      if (next.isVisible === isVisible && next.isOnline === isOnline) return;
      ({ isVisible, isOnline } = next);
      const { followedRunId } = store.model();
      if (followedRunId !== null) follow(followedRunId);
      else store.dispatch({ type: 'hostSignalsChanged', isOnline });
    },
  };
}

/** Turns the REST snapshot (ISO timestamps) into the reducer's shape (epoch ms). */
export function fromRunResource(resource: RunResource): RunSnapshot {
  return { ...resource, createdAt: toEpochMs(resource.createdAt), updatedAt: toEpochMs(resource.updatedAt) };
}

function toEpochMs(value: unknown): number | null {
  // Anything but a number or a date string (null, a missing field) parses to NaN, hence null.
  const ms = typeof value === 'number' ? value : Date.parse(String(value));
  return Number.isNaN(ms) ? null : ms;
}
