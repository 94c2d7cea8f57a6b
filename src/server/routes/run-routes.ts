import type { CancelRunResponse } from '../../core/protocol.ts';
import { isTerminalEvent, LAST_EVENT_ID_HEADER, REQUEST_ID_HEADER, RUN_LAST_SEQ_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { withFeedback } from './feedback-route.ts';
import { emptyResponse, jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { streamRunEvents } from '../sse/stream-run-events.ts';
import type { Route } from './route-context.ts';
import { toRunResource } from './route-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';
import { requireOwnedRun } from '../operations/owned-resources.ts';

const CURSOR_PATTERN = /^(0|[1-9][0-9]{0,14})$/;

/** `GET /runs/{runId}` (docs/protocol.md §5.3): the snapshot (the reducer over the log) with its `resumeCursor` and the caller's votes. */
export const getRunRoute: Route = {
  method: 'GET',
  template: '/runs/{runId}',
  handle: async (request, context) => {
    const entry = await requireOwnedRun(request, context);
    const snapshot = await entry.record.refresh();
    const messages = await withFeedback(snapshot.messages, request.subject.id, context);
    return jsonResponse(200, toRunResource({ ...snapshot, messages }), { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/**
 * `GET /runs/{runId}/events` (docs/protocol.md §6, §9, §15): `Last-Event-ID` beats `?after`; `400
 * CURSOR_INVALID` for a malformed cursor, `410 CURSOR_EXPIRED` for one ahead of the log or
 * trimmed, `204` at the terminal cursor, else the SSE stream (the identity's oldest stream past
 * its cap is closed, docs/protocol.md §16).
 */
export const runEventsRoute: Route = {
  method: 'GET',
  template: '/runs/{runId}/events',
  opensStream: true,
  handle: async (request, context) => {
    const entry = await requireOwnedRun(request, context);
    const runId = entry.record.runId;
    const header = request.raw.headers.get(LAST_EVENT_ID_HEADER);
    const lastEventId = header !== null && header.trim() !== '' ? header.trim() : undefined;
    const cursor = lastEventId ?? request.url.searchParams.get('after') ?? '0';
    if (!CURSOR_PATTERN.test(cursor)) {
      return fail({
        code: 'CURSOR_INVALID',
        detail: 'Use a cursor the server sent (an event id or resumeCursor).',
        runId,
      });
    }
    const afterSeq = Number(cursor);
    const stored = await context.storage.getRun(runId);
    const lastSeq = stored?.lastSeq ?? 0;
    const firstSeq = stored?.firstSeq ?? 1;
    if (afterSeq > lastSeq || afterSeq < firstSeq - 1) {
      return fail({
        code: 'CURSOR_EXPIRED',
        detail: 'Reload the run snapshot and resume from its cursor.',
        runId,
        details: { lastSeq },
      });
    }
    if (afterSeq === lastSeq) {
      const [last] = await context.storage.readEvents(runId, lastSeq - 1, 1);
      const isAtTerminal = last === undefined ? stored?.endedAt !== null : isTerminalEvent(last);
      if (isAtTerminal) {
        return emptyResponse(204, {
          [REQUEST_ID_HEADER]: request.requestId,
          [RUN_LAST_SEQ_HEADER]: String(lastSeq),
        });
      }
    }
    const stream = streamRunEvents({
      signal: request.raw.signal,
      runId,
      eventLog: {
        read: (id, afterSeq, limit) =>
          context.storage.readTail?.(id, afterSeq, limit) ?? context.storage.readEvents(id, afterSeq, limit),
        subscribe: context.storage.subscribe,
      },
      afterSeq,
      lastSeq,
      settings: context.stream,
      clock: context.clock,
      headers: { [REQUEST_ID_HEADER]: request.requestId },
      stallTimeoutMs: context.streamStallTimeoutMs,
      onError: (error) => context.onError(error, { where: 'stream', runId }),
    });
    context.streams.add(request.identityId, stream);
    void stream.done.then(() => context.streams.delete(request.identityId, stream));
    return stream.response;
  },
};

/**
 * `POST /runs/{runId}/cancel` (docs/protocol.md §12): `202 {status:'cancelling', eventSeq}` while the run is
 * live (repeatable), `200 {status}` once it has ended. Every cancel counts against
 * `cancelsPerMinute`; `reason` is at most `maxReasonChars` (docs/protocol.md §16).
 */
export const cancelRunRoute: Route = {
  method: 'POST',
  template: '/runs/{runId}/cancel',
  rate: 'cancelsPerMinute',
  handle: async (request, context) => {
    const { limits } = context;
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits,
      identityId: request.identityId,
      limit: 'cancelsPerMinute',
    });
    const entry = await requireOwnedRun(request, context);
    const { reason } = parseContractBody('CancelRunRequest', request.body, { limits });
    const result = await context.store.cancelRun(entry.record.runId, reason);
    const response: CancelRunResponse = {
      status: result.status,
      ...(result.eventSeq === undefined ? {} : { eventSeq: result.eventSeq }),
    };
    return jsonResponse(result.httpStatus, response, { [REQUEST_ID_HEADER]: request.requestId });
  },
};
