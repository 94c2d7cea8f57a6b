import type {
  ActiveRunRef,
  Capabilities,
  ModelInfo,
  RunResource,
  RunSnapshot,
  StreamSettings,
} from '../../core/protocol.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import type { AttachmentFiles } from '../attachments/attachment-files.ts';
import type { BrowserToolRuntime } from '../executors/browser-tool-runtime.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { failInUse, parseIdempotencyKey } from '../idempotency/idempotency-store.ts';
import type { RunSlot } from '../http/edge-admission.ts';
import type { RequestBody } from '../http/request-body.ts';
import type { HandlerLimits, RateLimitName, RequestRates } from '../limits/rate-limits.ts';
import type { Subject } from '../runs/run-handle.ts';
import type { RunEntry, RunStore } from '../runs/run-store.ts';
import type { AgentStorage, IdempotencyCompletion, StoredResponse, StoredSession } from '../storage/storage-port.ts';
import { IdempotencyLockLostError } from '../storage/storage-port.ts';
import type { StreamRegistry } from '../sse/stream-registry.ts';
import type { Clock } from '../../core/clock.ts';
import type { SendContextHooks } from './send-context-hooks.ts';
import type { AgentInfo } from '../agent-info.ts';
import type { OnFeedback } from '../agent-server-options.ts';

/** Everything the routes share: one per handler. */
export interface HandlerContext {
  store: RunStore;
  storage: AgentStorage;
  idempotency: IdempotencyStore;
  agent: AgentInfo;
  models: ModelInfo[];
  capabilities: Capabilities;
  limits: HandlerLimits;
  /** Uploaded files (docs/protocol.md §5.8); null when the server keeps none. */
  attachments: AttachmentFiles | null;
  /** Executors, claims and grants of browser tools; null when the product did not turn them on. */
  browserTools: BrowserToolRuntime | null;
  /** The per-identity request rates of `limits` (docs/protocol.md §16.1). */
  rateLimiter: RequestRates;
  stream: StreamSettings;
  clock: Clock;
  ids: (prefix: string) => string;
  /** `{basePath}/v1`, for `Location` and `eventsUrl`. */
  apiBase: string;
  /** Open SSE streams by identity (capped per identity), closed by `handler.close()`. */
  streams: StreamRegistry;
  /** A stream whose client has taken no bytes for this long is cut. */
  streamStallTimeoutMs: number;
  /** The product's checks of a send (`checkBalance`, `resolveContextRefs`). */
  sendHooks: SendContextHooks;
  /** The product's `onFeedback`, told about every kept vote. */
  onFeedback?: OnFeedback;
  /** Where failures that no response can carry go (a stream's read that failed): the handler's `onError`. */
  onError: (error: unknown, context: Record<string, unknown>) => void;
}

/** One authenticated request after the cross-cutting checks. */
export interface RequestContext {
  /** The Web request as the fetch core received it (headers, `signal`). */
  raw: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  subject: Subject;
  identityId: string;
  /** The network client it comes from: its address, or `unnamed:<requestId>` when unknown (docs/server.md, "Overload"). */
  client: string;
  /** The parsed JSON body of a POST, PATCH or DELETE (`{}` when it had none; `{}` on a `stream` route). */
  body: unknown;
  /** On a `stream` route: the body, for the route to read itself once its checks passed. */
  bodyStream?: RequestBody;
  /** On a route that `createsRun`: the edge's run slot, held by the run the route creates. */
  runSlot?: RunSlot;
}

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

/** Returns the caller's run, or throws `404 NOT_FOUND` (also for another subject's run). */
export async function requireOwnedRun(request: RequestContext, context: HandlerContext): Promise<RunEntry> {
  const entry = await context.store.getRun(request.params.runId ?? '');
  if (entry === null || entry.subjectId !== request.subject.id)
    return fail({ code: 'NOT_FOUND', detail: 'No such run.' });
  return entry;
}

/** Returns the caller's session, or throws `404 NOT_FOUND` (also for another subject's session). */
export async function requireOwnedSession(request: RequestContext, context: HandlerContext): Promise<StoredSession> {
  const session = await context.store.getSession(request.params.sessionId ?? '');
  if (session === null || session.subjectId !== request.subject.id)
    return fail({ code: 'NOT_FOUND', detail: 'No such session.' });
  return session;
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

/** Narrows an unknown JSON body to a plain object, or throws `422 VALIDATION_FAILED`. */
export function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail({ code: 'VALIDATION_FAILED', detail: `${what} must be a JSON object.`, details: { field: what } });
  }
  return value as Record<string, unknown>;
}
