import type { PendingToolCall, PendingToolCallsResponse, SnapshotToolCall } from '../../core/protocol.ts';
import type { RunEntry, RunStore } from '../runs/run-store.ts';
import type { ExecutorLease } from './executor-registry.ts';

/** Sessions read per page while looking for a subject's live runs. */
const SESSION_PAGE = 100;

/** The subject's runs that have not ended (at most one per session), read from the store. */
export async function liveRunsOf(store: RunStore, subjectId: string): Promise<RunEntry[]> {
  const entries: RunEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.listSessions(subjectId, {
      limit: SESSION_PAGE,
      ...(after === undefined ? {} : { after }),
    });
    for (const session of page?.items ?? []) {
      const entry = session.activeRunId === null ? null : await store.getRun(session.activeRunId);
      if (entry !== null && !entry.record.isTerminal()) entries.push(entry);
    }
    const next = page?.next ?? null;
    if (next === null) return entries;
    after = next;
  }
}

/** True for a browser call that waits for an executor or runs in one and has no result yet. */
export function isOpenBrowserCall(call: SnapshotToolCall): boolean {
  return call.executor?.kind === 'browser' && call.executor.expiresAt !== undefined && call.result === undefined;
}

/**
 * Gives up the claims `lease` holds on calls it never started (docs/protocol.md §19.4): appends
 * `TOOL_CALL_RELEASED` to each, so another executor may claim them. A started call is never
 * released; its deadline ends it. Resolves with the released calls.
 */
export async function releaseUnstartedClaims(
  store: RunStore,
  lease: Pick<ExecutorLease, 'subjectId' | 'executorId'>,
  reason: 'disconnected' | 'executor_lost',
): Promise<Array<{ runId: string; toolCallId: string }>> {
  const released: Array<{ runId: string; toolCallId: string }> = [];
  for (const entry of await liveRunsOf(store, lease.subjectId)) {
    let unstarted: string[] = [];
    const appended = await entry.record.transact((s) => {
      unstarted = s.toolCalls
        .filter(
          (call) =>
            isOpenBrowserCall(call) &&
            call.executor?.executorId === lease.executorId &&
            call.executor.acceptedAt === undefined,
        )
        .map((call) => call.toolCallId);
      return unstarted.map((toolCallId) => ({
        type: 'TOOL_CALL_RELEASED' as const,
        data: { toolCallId, executorId: lease.executorId, reason },
      }));
    });
    if (appended.length > 0)
      released.push(...unstarted.map((toolCallId) => ({ runId: entry.record.runId, toolCallId })));
  }
  return released;
}

/**
 * The calls `lease` may claim or must finish, oldest first (by run id, then call id): open browser calls of the
 * subject's live runs for a tool it registered, unclaimed or claimed by it. `after` is the
 * previous page's `nextAfter` (an opaque position); at most `limit` items.
 */
export async function listPendingCalls(
  store: RunStore,
  lease: ExecutorLease,
  page: { after: string | null; limit: number },
): Promise<PendingToolCallsResponse> {
  const items: Array<PendingToolCall & { position: string }> = [];
  for (const entry of await liveRunsOf(store, lease.subjectId)) {
    const snapshot = entry.record.snapshot();
    for (const call of snapshot.toolCalls) {
      const executor = call.executor;
      if (!isOpenBrowserCall(call) || executor === undefined || !lease.tools.includes(call.name)) continue;
      const claimedBy =
        executor.executorId === undefined ? null : executor.executorId === lease.executorId ? 'self' : 'other';
      if (claimedBy === 'other') continue;
      items.push({
        // Run and call ids are ULIDs, so this order is the order the calls were made in.
        position: `${snapshot.runId}.${call.toolCallId}`,
        runId: snapshot.runId,
        sessionId: snapshot.sessionId,
        toolCallId: call.toolCallId,
        name: call.name,
        args: call.args,
        argsDigest: call.argsDigest ?? '',
        expiresAt: executor.expiresAt ?? '',
        claimedBy,
        isAccepted: executor.acceptedAt !== undefined,
      });
    }
  }
  const sorted = items
    .filter((item) => page.after === null || item.position > page.after)
    .sort((a, b) => (a.position < b.position ? -1 : 1));
  const shown = sorted.slice(0, page.limit);
  return {
    items: shown.map(({ position: _position, ...item }) => item),
    nextAfter: sorted.length > page.limit ? (shown.at(-1)?.position ?? null) : null,
  };
}
