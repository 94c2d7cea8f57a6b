import { EventEncoder } from '@ag-ui/encoder';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import { requireOwnedRun } from '../operations/owned-resources.ts';
import { streamRunEvents } from '../sse/stream-run-events.ts';
import type { AgUiThreads } from './ag-ui-threads.ts';
import { createAgUiTranslator } from './to-ag-ui-events.ts';

/**
 * One AG-UI run as a segment of one of our runs: its events are ours after `afterSeq`, up to our
 * terminal event or the next wait for the user. Stored as the idempotency record of the AG-UI
 * `runId`, so a retry serves the same segment again.
 */
export interface AgUiSegment {
  threadId: string;
  agUiRunId: string;
  runId: string;
  sessionId: string;
  afterSeq: number;
}

/** The reason our run is cancelled with when its AG-UI client goes away mid-run. */
export const AG_UI_DISCONNECT_REASON = 'ag-ui client disconnected';

/**
 * Streams a segment as AG-UI events over SSE (each encoded by `@ag-ui/encoder`'s `EventEncoder`),
 * read from the log like every event stream (resumable reads, heartbeats, the per-identity stream
 * cap, the stall guard), for at most the run's `runMaxDurationSec`. AG-UI has no cancel request
 * and no reconnect, so a client that closes the live segment's stream before its end cancels the
 * run (`RUN_FINISHED{cancelled}`); a server-side close (shutdown, stream cap) does not.
 */
export async function streamAgUiSegment(
  request: RequestContext,
  context: HandlerContext,
  options: { segment: AgUiSegment; threads: AgUiThreads },
): Promise<Response> {
  const { segment, threads } = options;
  const entry = await requireOwnedRun({ ...request, params: { runId: segment.runId } }, context);
  const { runId } = segment;
  const stored = await context.storage.getRun(runId);
  const lastSeq = stored?.lastSeq ?? 0;
  const firstSeq = stored?.firstSeq ?? 1;
  if (segment.afterSeq < firstSeq - 1) {
    return fail({ code: 'CURSOR_EXPIRED', detail: 'This run’s events are no longer kept.', runId });
  }
  const translator = createAgUiTranslator({
    threadId: segment.threadId,
    runId: segment.agUiRunId,
    ourRunId: runId,
    sessionId: segment.sessionId,
  });
  const encoder = new EventEncoder();
  const cancelOnDisconnect = (): void => {
    if (translator.isEnded() || entry.record.isTerminal()) return;
    // Only the AG-UI run serving ours now cancels it (a resume elsewhere took over an older one).
    threads
      .isLiveSegment(runId, segment.agUiRunId)
      .then((isLive) =>
        isLive && !entry.record.isTerminal() ? context.store.cancelRun(runId, AG_UI_DISCONNECT_REASON) : undefined,
      )
      .catch(() => undefined);
  };
  const stream = streamRunEvents({
    signal: request.raw.signal,
    onClientGone: cancelOnDisconnect,
    runId,
    eventLog: {
      read: (id, afterSeq, limit) => context.storage.readEvents(id, afterSeq, limit),
      subscribe: context.storage.subscribe,
    },
    afterSeq: segment.afterSeq,
    lastSeq,
    settings: context.stream,
    clock: context.clock,
    headers: { [REQUEST_ID_HEADER]: request.requestId },
    stallTimeoutMs: context.streamStallTimeoutMs,
    onError: (error) => context.onError(error, { where: 'stream', runId }),
    maxDurationMs: context.limits.runMaxDurationSec * 1000,
    frame: (event) => {
      const translated = translator.translate(event);
      return {
        text: translated.events.map((agUiEvent) => encoder.encodeSSE(agUiEvent)).join(''),
        isEnd: translated.isEnd,
      };
    },
  });
  context.streams.add(request.identityId, stream);
  void stream.done.then(() => context.streams.delete(request.identityId, stream));
  return stream.response;
}
