import type { ActiveRunRef, RunResource, RunSnapshot } from '../../core/protocol.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { jsonResponse } from '../http/respond.ts';
import { failInUse, parseIdempotencyKey } from '../idempotency/idempotency-store.ts';
import type { RateLimitName } from '../limits/rate-limits.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import type { IdempotencyCompletion, StoredResponse, StoredSession } from '../storage/storage-port.ts';
import { IdempotencyLockLostError } from '../storage/storage-port.ts';

/** A route: what it matches and how it answers. */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to `{base}/v1`, with `{name}` path parameters. */
  template: string;
  /**
   * How a write (POST, PATCH, DELETE) resists cross-site requests: `identity-header` (the default) requires
   * `X-Agent-Identity`; `json-body` instead requires an `application/json` body (for clients that
   * cannot bootstrap, e.g. AG-UI's, docs/ag-ui.md). Both force a CORS preflight.
   */
  csrfGuard?: 'identity-header' | 'json-body';
  /** The rate a write of this route counts against, also when its body is not even JSON. */
  rate?: RateLimitName;
  /**
   * What the body is: JSON (the default, read before the route runs), or `stream` (an uploaded
   * file): the route gets it unread as `bodyStream`, read within `maxAttachmentBytes`, so it can
   * refuse before reading a byte; a refusal then closes the connection.
   */
  body?: 'json' | 'stream';
  /** Holds a stream slot while it runs (`maxStreams`, `maxStreamsPerClient`). */
  opensStream?: boolean;
  /** May create a run: takes a run slot first (`maxLiveRuns`, `maxLiveRunsPerClient`). */
  createsRun?: boolean;
  /** Answers the request; a refusal is thrown as a `DomainError` (a `ProblemError`) instead. */
  handle: (request: RequestContext, context: HandlerContext) => Promise<Response>;
}

/** The REST form of a snapshot: ISO timestamps. */
export function toRunResource(snapshot: RunSnapshot): RunResource {
  return { ...snapshot, createdAt: toIso(snapshot.createdAt), updatedAt: toIso(snapshot.updatedAt) };
}

/** The `activeRun` reference of a session, or null. */
export async function activeRunOf(session: StoredSession, context: HandlerContext): Promise<ActiveRunRef | null> {
  return toActiveRunRef(await liveRunOf(session, context));
}

/** The `activeRun` reference of a live run's snapshot (null for none). */
export function toActiveRunRef(snapshot: RunSnapshot | null): ActiveRunRef | null {
  return snapshot === null ? null : { runId: snapshot.runId, status: snapshot.status, lastSeq: snapshot.lastSeq };
}

/** The snapshot of the session's run not yet ended, refreshed from the log; null when none. */
export async function liveRunOf(session: StoredSession, context: HandlerContext): Promise<RunSnapshot | null> {
  const entry = session.activeRunId === null ? null : await context.store.getRun(session.activeRunId);
  if (entry === null || entry.record.isTerminal()) return null;
  return entry.record.refresh();
}

/** Epoch ms → ISO-8601 (REST resources use ISO; envelopes use epoch ms). */
export function toIso(ms: number | null): string {
  return new Date(ms ?? 0).toISOString();
}

/**
 * Runs a POST under `Idempotency-Key` (docs/protocol.md §10): validates the key, looks it up BEFORE any
 * business or state check (replaying a stored answer with `Idempotent-Replayed: true`), then runs
 * `execute`, which commits the completed record (`complete(response)`) together with its effect.
 * A thrown problem stores nothing (a corrected retry is accepted); a lock another request took
 * over meanwhile is `409 IDEMPOTENCY_KEY_IN_USE` and committed nothing.
 */
export async function respondIdempotently(
  request: RequestContext,
  context: HandlerContext,
  options: {
    routeTemplate: string;
    execute: (complete: (response: StoredResponse) => IdempotencyCompletion) => Promise<StoredResponse>;
  },
): Promise<Response> {
  const key = parseIdempotencyKey(request.raw.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined);
  const begun = await context.idempotency.begin({
    scope: request.subject.id,
    method: 'POST',
    routeTemplate: options.routeTemplate,
    key,
    body: request.body,
    pathParams: request.params,
  });
  if (begun.kind === 'replay') {
    const { status, body, headers } = begun.response;
    return jsonResponse(status, body, {
      ...headers,
      [IDEMPOTENT_REPLAYED_HEADER]: 'true',
      [REQUEST_ID_HEADER]: request.requestId,
    });
  }
  let response: StoredResponse;
  try {
    response = await options.execute(begun.completion);
  } catch (error) {
    if (error instanceof IdempotencyLockLostError) return failInUse();
    await begun.abandon();
    throw error;
  }
  await begun.complete(response);
  return jsonResponse(response.status, response.body, {
    ...response.headers,
    [REQUEST_ID_HEADER]: request.requestId,
  });
}
