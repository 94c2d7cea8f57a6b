import type { SessionResource } from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import type { ClientContext } from './client-context.ts';

/** What {@link createTabSync} needs of the client besides its context. */
export interface TabSyncParts {
  /**
   * Shows session `sessionId` again from the server (its history, then its active run's stream), so
   * a run that branched elsewhere (a regeneration or an edit) shows on its branch.
   */
  reload(sessionId: string): Promise<void>;
  /** True while a send of this client has no run yet (its own run is on its way: nothing to join). */
  isSending(): boolean;
}

/** Keeps one client in step with the other tabs showing its conversation; `dispose` stops it. */
export interface TabSync {
  /** The host came back into view: read the session and join a run started elsewhere meanwhile. */
  onVisible(): void;
  dispose(): void;
}

/**
 * Keeps the tabs that show one conversation in step (docs/client.md, "Tabs"). Each run a client
 * follows, not ended, is announced on a `BroadcastChannel` named after the endpoint; another client
 * of the same browser (a tab, the launcher on another page) that shows the same session and does
 * not know the run shows the session again with it at once (its history too, as the run may have
 * made a branch), so both stream it, and a Stop or an approval answered in
 * either shows in both. A tab or device the channel does not reach catches up when it comes back
 * into view: it reads its session (`GET /sessions/{id}`) and follows an active run it does not
 * know. A hidden tab keeps no stream open.
 */
export function createTabSync(context: ClientContext, parts: TabSyncParts): TabSync {
  const { store } = context;
  const channel =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(`agent-chat ${context.settings.endpoint}`) : null;

  /** Shows the session again with run `runId` when this client shows that session, knows no such run and is not sending. */
  function join(sessionId: string | undefined, runId: string | undefined): void {
    if (
      runId === undefined ||
      sessionId !== store.model().sessionId ||
      store.getRun(runId) !== undefined ||
      parts.isSending() ||
      context.isDisposed()
    ) {
      return;
    }
    // Best effort: a run of another tab that cannot be read is not this tab's failure.
    parts.reload(sessionId).catch(() => undefined);
  }

  if (channel !== null) {
    channel.onmessage = ({ data }: MessageEvent<{ sessionId?: string; runId?: string }>) =>
      join(data.sessionId, data.runId);
  }
  let announced: string | null = null;
  const unsubscribe = store.subscribe(({ sessionId, run }) => {
    if (run === null || run.runId === announced || isTerminalRunStatus(run.status)) return;
    announced = run.runId;
    channel?.postMessage({ sessionId, runId: run.runId });
  });

  return {
    onVisible() {
      const { sessionId } = store.model();
      if (sessionId === null) return;
      context.get<SessionResource>(`/sessions/${encodeURIComponent(sessionId)}`).then(
        ({ body }) => join(body?.sessionId, body?.activeRun?.runId),
        () => undefined,
      );
    },
    dispose() {
      unsubscribe();
      channel?.close();
    },
  };
}
