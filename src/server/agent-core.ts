import { pickDefined } from '../core/pick-defined.ts';
import { IDENTITY_HEADER, PROTOCOL_HEADER, REQUEST_ID_HEADER } from '../core/protocol.ts';
import {
  DEFAULT_AGENT,
  DEFAULT_ATTACHMENT_CAPS,
  DEFAULT_ATTACHMENT_LIMITS,
  DEFAULT_BROWSER_TOOL_LIMITS,
  DEFAULT_CAPABILITIES,
  DEFAULT_EXECUTOR_CAPS,
  DEFAULT_EDGE_LIMITS,
  DEFAULT_LIMITS,
  DEFAULT_MODELS,
  DEFAULT_RETENTION,
  DEFAULT_STREAM_SETTINGS,
  STORED_SECRET_REFRESH_MS,
  UNSENT_ATTACHMENT_TTL_MS,
  UNSENT_ATTACHMENT_TTL_WHEN_SHORT_MS,
} from './agent-handler-defaults.ts';
import { createAttachmentFiles } from './attachments/attachment-files.ts';
import type { AgentHandlerMembers, AgentServerOptions, Authenticate } from './agent-server-options.ts';
import { answerFailure } from './http/answer-failure.ts';
import { createNameClient } from './http/client-address.ts';
import { createEdgeAdmission } from './http/edge-admission.ts';
import type { EdgeAdmission, EdgeLimits, RunSlot } from './http/edge-admission.ts';
import { createLoadMonitor } from './http/load-monitor.ts';
import { createCors } from './http/cors.ts';
import { parseRequestTarget } from './http/parse-request-target.ts';
import { ProblemError } from './http/problem-error.ts';
import { isMalformedBody, readJsonBody } from './http/read-json-body.ts';
import { closingConnection, openRequestBody } from './http/request-body.ts';
import { whenBodyDone, withHeaders } from './http/response-parts.ts';
import { createIdempotencyStore } from './idempotency/idempotency-store.ts';
import { createIdentityFor } from './identity-for.ts';
import { createUlidIds } from './ids/create-ulid-ids.ts';
import { createBrowserToolRuntime } from './executors/browser-tool-runtime.ts';
import { createRateLimits, enforceRateLimit } from './limits/rate-limits.ts';
import type { HandlerLimits } from './limits/rate-limits.ts';
import { bootstrapRoute } from './routes/bootstrap-route.ts';
import { matchHandlerRoute, routeNameOf } from './handler-routes.ts';
import type { HandlerContext } from './operations/operation-context.ts';
import type { Route } from './routes/route-context.ts';
import { checkAgentInfo } from './agent-info.ts';
import type { Subject } from './runs/run-handle.ts';
import { createRunStore } from './runs/run-store.ts';
import { createStreamRegistry } from './sse/stream-registry.ts';
import { createMemoryStorage } from './storage/memory-storage.ts';
import { createObservability } from './observability/create-observability.ts';
import type { StructuredLog } from './observability/structured-log.ts';
import { createSystemClock } from '../core/clock.ts';
import type { StoredSecret } from './stored-secret.ts';
import { createStoredSecret } from './stored-secret.ts';
import { unrefTimer } from './unref-timer.ts';

/** Options of {@link createAgentCore}: the shared ones, with `authenticate` on the Web request. */
export interface AgentCoreOptions extends AgentServerOptions {
  authenticate: Authenticate<Request>;
}

/** What the server that received a request knows about its connection (the core sees no socket). */
export interface AgentEdge {
  /** The address the connection came from (before `trustProxy` applies); undefined when unknown. */
  remoteAddress: string | undefined;
  /** Admits a request of `client` against the connection caps, or throws; returns its release. */
  admit(client: string): () => void;
}

/** The one request pipeline of both handlers (docs/server.md): the fetch core. */
export interface AgentCore extends AgentHandlerMembers {
  /** Answers `request` (never throws); `edge` says what the host knows of its connection. */
  serve(request: Request, edge: AgentEdge): Promise<Response>;
  /** Whether `pathname` is the core's to answer (under `{basePath}`, or an operator route that is on). */
  serves(pathname: string): boolean;
  /** The answer to a request that failed before it could even become a `Request` (the Node adapter's). */
  answerUnreadable(
    error: unknown,
    request: { method: string; path: string; requestIdHeader: string | undefined },
  ): Response;
  /** The admission control, which the Node adapter ties to its sockets. */
  admission: EdgeAdmission;
  /** The handler's structured log (`logLevel`, `log`), for what a host adapter has to say. */
  log: StructuredLog;
}

/** `serve` with the core's members (`close`, `store`, `storage`, `stats`, `readiness`): each handler's shape. */
export function withHandlerMembers<Serve extends (...args: never[]) => unknown>(
  serve: Serve,
  core: AgentCore,
): Serve & AgentHandlerMembers {
  return Object.assign(serve, {
    store: core.store,
    storage: core.storage,
    stats: core.stats,
    readiness: core.readiness,
    close: core.close,
  });
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

const unsupportedMediaType = (): ProblemError =>
  new ProblemError({ code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'Send the body as application/json.' });

/**
 * Creates the protocol v1 pipeline (docs/protocol.md) on Web `Request`s and `Response`s: operator
 * routes, CORS, admission and load shedding, the protocol checks, authentication, rate limits,
 * the body, then the route. Every answer carries `X-Request-Id`; every failure is
 * `application/problem+json` with a code, never a stack, and nothing a client sends throws out of
 * it. Past `maxConnections` requests at once, `maxStreams` streams or `maxLiveRuns` live runs it
 * answers `503 AGENT_UNAVAILABLE` with `Retry-After` (load shedding), past a network client's
 * share of any of them `429 RATE_LIMITED` (docs/server.md, "Overload"). A request is held (its
 * connection slot, its stream slot) until its answer's body is over.
 */
export function createAgentCore(options: AgentCoreOptions): AgentCore {
  // Checked before anything starts, so a refused option leaves no timer or store behind.
  const agent = checkAgentInfo(options.agent ?? DEFAULT_AGENT);
  const clock = options.clock ?? createSystemClock();
  const ids = options.ids ?? createUlidIds(clock);
  const basePath = (options.basePath ?? '/api/agent').replace(/\/+$/, '');
  const limits: HandlerLimits = {
    ...DEFAULT_LIMITS,
    ...DEFAULT_BROWSER_TOOL_LIMITS,
    ...DEFAULT_ATTACHMENT_LIMITS,
    ...options.limits,
  };
  const maxConnections = options.maxConnections ?? DEFAULT_EDGE_LIMITS.maxConnections;
  const nameClient = createNameClient(options.trustProxy);
  const edgeLimits: EdgeLimits = {
    maxConnections,
    maxConnectionsPerClient: DEFAULT_EDGE_LIMITS.maxConnectionsPerClient,
    maxBodiesPerClient: DEFAULT_EDGE_LIMITS.maxBodiesPerClient,
    maxBodiesPerIdentity: DEFAULT_EDGE_LIMITS.maxBodiesPerIdentity,
    maxStreams: DEFAULT_EDGE_LIMITS.maxStreams,
    maxStreamsPerClient: DEFAULT_EDGE_LIMITS.maxStreamsPerClient,
    maxLiveRuns: DEFAULT_EDGE_LIMITS.maxLiveRuns,
    maxLiveRunsPerClient: DEFAULT_EDGE_LIMITS.maxLiveRunsPerClient,
    newClientRunReserve: DEFAULT_EDGE_LIMITS.newClientRunReserve,
    newClientWaitMs: DEFAULT_EDGE_LIMITS.newClientWaitMs,
    maxWaitingNewClients: DEFAULT_EDGE_LIMITS.maxWaitingNewClients,
    maxParkedRuns: DEFAULT_EDGE_LIMITS.maxParkedRuns,
    maxParkedRunsPerClient: DEFAULT_EDGE_LIMITS.maxParkedRunsPerClient,
    shedAtEventLoopUtilization: DEFAULT_EDGE_LIMITS.shedAtEventLoopUtilization,
    ...options.edgeLimits,
    retryAfterMs: DEFAULT_EDGE_LIMITS.capacityRetryAfterMs,
  };
  const load = createLoadMonitor({ threshold: edgeLimits.shedAtEventLoopUtilization });
  const admission = createEdgeAdmission(edgeLimits, { load, clock });
  const requestBodyTimeoutMs = options.requestBodyTimeoutMs ?? DEFAULT_EDGE_LIMITS.requestBodyTimeoutMs;
  const ownStorage = options.storage ?? createMemoryStorage();
  const observability = createObservability(
    options,
    ownStorage,
    { streams: () => context.streams.size, requests: () => admission.stats().requests },
    routeNameOf,
  );
  const storage = observability.instrumentStorage(ownStorage);
  const typeBase = options.problemTypeBase ?? 'urn:agent-chat:problem:';
  const onError = (error: unknown, where: Record<string, unknown>): void => {
    observability.reportError(error, where);
    options.onError?.(error, where);
  };
  const storedSecret = (name: string): StoredSecret =>
    createStoredSecret({
      storage,
      name,
      now: () => clock.now(),
      refreshMs: STORED_SECRET_REFRESH_MS,
      onChange: () =>
        onError(
          new Error(
            `The stored ${name} changed under this process (did the storage lose its data? Redis needs persistence); it now uses the stored one.`,
          ),
          { where: 'settings', setting: name },
        ),
    });
  const identityFor = resolveIdentityFor(options, storedSecret);
  const retention = { ...DEFAULT_RETENTION, ...options.retention };
  const attachments =
    options.attachments === undefined
      ? null
      : createAttachmentFiles({
          store: options.attachments,
          limits,
          caps: { ...DEFAULT_ATTACHMENT_CAPS, ...options.attachmentCaps },
          ids,
          now: () => clock.now(),
          unsentTtlMs: UNSENT_ATTACHMENT_TTL_MS,
          unsentTtlWhenShortMs: UNSENT_ATTACHMENT_TTL_WHEN_SHORT_MS,
          capacityRetryAfterMs: DEFAULT_EDGE_LIMITS.capacityRetryAfterMs,
        });
  const store = createRunStore({
    storage,
    ...(attachments === null
      ? {}
      : { readAttachment: (ownerId: string, attachmentId: string) => attachments.read(ownerId, attachmentId) }),
    leaseTtlMs: options.leaseTtlMs ?? 10_000,
    interruptTtlMs: limits.interruptDefaultTtlSec * 1000,
    engine: observability.instrumentEngine(options.engine),
    clock,
    ids,
    cancelGraceMs: options.cancelGraceMs ?? 30_000,
    retention: {
      eventRetentionMs: limits.eventRetentionSec * 1000,
      sessionIdleTtlMs: limits.sessionIdleTtlSec * 1000,
      maxSessionsPerSubject: limits.maxSessionsPerIdentity,
      maxRunsPerSession: limits.maxRunsPerSession,
      maxSessions: retention.maxSessions,
      maxRuns: retention.maxRuns,
      protectActiveSessionsMs: retention.protectActiveSessionsMs,
    },
    maxActiveRunsPerSubject: limits.maxActiveRuns,
    maxEventBytes: limits.maxEventBytes,
    onEngineError: (error, context) => onError(error, { ...context, where: 'engine' }),
    onError: (error, context) => onError(error, context),
    ...(options.suggestTitle === undefined ? {} : { suggestTitle: options.suggestTitle }),
  });
  const idempotency = createIdempotencyStore({
    storage,
    clock,
    ids,
    ttlMs: limits.idempotencyKeyTtlSec * 1000,
    ...options.idempotency,
  });
  const rateLimiter = createRateLimits(limits, clock, storage);
  const cors = options.cors === undefined ? null : createCors(options.cors);
  const browserTools =
    options.canUseExecutor === undefined
      ? null
      : createBrowserToolRuntime({
          canUseExecutor: options.canUseExecutor,
          store,
          clock,
          limits,
          caps: DEFAULT_EXECUTOR_CAPS,
          grantSecret: options.grantSecret ?? storedSecret('tool_grant_secret'),
          ...(storage.executorLeases === undefined ? {} : { leases: storage.executorLeases }),
          onError,
        });
  const context: HandlerContext = {
    store,
    storage,
    idempotency,
    agent,
    models: options.models ?? (options.engine.models === undefined ? DEFAULT_MODELS : [...options.engine.models]),
    capabilities: {
      ...(options.capabilities ?? DEFAULT_CAPABILITIES),
      browserTools: { supported: browserTools !== null },
      attachments: { supported: attachments !== null },
    },
    attachments,
    browserTools,
    limits,
    rateLimiter,
    stream: { ...DEFAULT_STREAM_SETTINGS, ...options.stream },
    clock,
    ids,
    apiBase: `${basePath}/v1`,
    streams: createStreamRegistry({
      maxPerIdentity: options.maxStreamsPerIdentity ?? DEFAULT_EDGE_LIMITS.maxStreamsPerIdentity,
    }),
    streamStallTimeoutMs: options.streamStallTimeoutMs ?? DEFAULT_EDGE_LIMITS.streamStallTimeoutMs,
    sendHooks: pickDefined({ resolveContextRefs: options.resolveContextRefs, checkBalance: options.checkBalance }),
    ...(options.onFeedback === undefined ? {} : { onFeedback: options.onFeedback }),
    onError,
  };
  const sweepEveryMs = Math.max(1_000, Math.min(60_000, limits.eventRetentionSec * 1000));
  let sweeper: unknown = null;
  let isClosed = false;
  const scheduleSweep = (): void => {
    if (isClosed) return;
    sweeper = clock.setTimeout(() => {
      rateLimiter.sweep();
      void store
        .sweep()
        .then(() => attachments?.sweep(async (sessionId) => (await storage.getSession(sessionId)) !== null))
        .catch((error: unknown) => onError(error, { where: 'sweep' }))
        .finally(scheduleSweep);
    }, sweepEveryMs);
    unrefTimer(sweeper);
  };
  scheduleSweep();
  // Runs a dead process left behind (their leases expired while no server ran) end or resume now.
  void store.reap().catch((error: unknown) => onError(error, { where: 'reaper' }));

  const basePathOf = (pathname: string): boolean => pathname === basePath || pathname.startsWith(`${basePath}/`);

  /** Matches the route and holds its stream and run slots around it (the stream slot until its body ends). */
  const serveMatched = async (
    request: Request,
    requestId: string,
    path: string,
    url: URL,
    client: string,
  ): Promise<Response> => {
    const { route, params } = matchHandlerRoute(request.method, path);
    // Global and per-client caps come before authentication: shedding must stay cheap.
    const releaseStream = route.opensStream === true ? admission.holdStream(client) : null;
    let runSlot: RunSlot | undefined;
    try {
      if (route.createsRun === true) runSlot = await admission.reserveRun(client);
      const response = await serveRoute({ request, requestId, url, route, params, client, runSlot });
      return releaseStream === null ? response : whenBodyDone(response, releaseStream);
    } catch (error) {
      releaseStream?.();
      throw error;
    } finally {
      runSlot?.release();
    }
  };

  const serveRoute = async (served: {
    request: Request;
    requestId: string;
    url: URL;
    route: Route;
    params: Record<string, string>;
    client: string;
    runSlot: RunSlot | undefined;
  }): Promise<Response> => {
    const { request, requestId, url, route, params, client, runSlot } = served;
    const protocol = request.headers.get(PROTOCOL_HEADER);
    if (protocol !== null && !/^\s*1(\.\d+)?\s*$/.test(protocol)) {
      throw new ProblemError({
        code: 'PROTOCOL_VERSION_UNSUPPORTED',
        detail: 'This server speaks protocol 1.',
        details: { supported: ['1'] },
      });
    }
    const subject = await options.authenticate(request);
    if (subject === null) throw new ProblemError({ code: 'UNAUTHENTICATED', detail: 'Sign in to use the agent.' });
    if (options.canUseAgent !== undefined && !(await options.canUseAgent(subject))) {
      throw new ProblemError({ code: 'FORBIDDEN', detail: 'You may not use this agent.' });
    }
    const identityId = await identityFor(subject);
    const claimed = request.headers.get(IDENTITY_HEADER);
    if (route !== bootstrapRoute) {
      if (claimed !== null && claimed !== identityId) {
        throw new ProblemError({ code: 'IDENTITY_CHANGED', detail: 'The signed-in user changed; bootstrap again.' });
      }
      if (claimed === null && route.method !== 'GET' && route.csrfGuard !== 'json-body') {
        throw new ProblemError({
          code: 'VALIDATION_FAILED',
          status: 400,
          detail: 'X-Agent-Identity required (from bootstrap).',
          details: { header: 'X-Agent-Identity' },
        });
      }
    }
    // Writes count against their own rate inside the route (POSTs after the idempotency lookup, §16.1).
    if (route.method === 'GET')
      await enforceRateLimit({ limiter: rateLimiter, limits, identityId, limit: 'readsPerMinute' });
    const common = { raw: request, url, params, requestId, subject, identityId, client };
    const withRunSlot = runSlot === undefined ? {} : { runSlot };
    if (route.body === 'stream') {
      // The route reads the body itself, after its own checks: a refusal before its end closes the connection.
      const releaseBody = admission.holdBody(client, identityId);
      const bodyStream = openRequestBody(request, {
        maxBytes: limits.maxAttachmentBytes,
        limitName: 'maxAttachmentBytes',
        timeoutMs: requestBodyTimeoutMs,
        clock,
      });
      try {
        return await route.handle({ ...common, body: {}, bodyStream, ...withRunSlot }, context);
      } catch (error) {
        throw bodyStream.isDone() ? error : closingConnection(error);
      } finally {
        bodyStream.cancel();
        releaseBody();
      }
    }
    let body: unknown = {};
    if (route.method !== 'GET') {
      // HTTP says a request without Content-Length or Transfer-Encoding has no body; a Request built
      // in code may still carry one, so it must then turn out empty unless it is JSON.
      const isDeclared =
        request.headers.has('transfer-encoding') || Number(request.headers.get('content-length') ?? 0) > 0;
      const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      const isJson = type === 'application/json';
      if ((isDeclared || route.csrfGuard === 'json-body') && !isJson) throw unsupportedMediaType();
      const releaseBody = admission.holdBody(client, identityId);
      try {
        body = await readJsonBody(request, {
          maxBytes: limits.maxRequestBytes,
          timeoutMs: requestBodyTimeoutMs,
          clock,
          ...(isJson ? {} : { onlyEmpty: unsupportedMediaType }),
        });
      } catch (error) {
        // A body that is not JSON is an attempt like any other: it counts against the route's rate.
        if (route.rate !== undefined && isMalformedBody(error))
          await enforceRateLimit({ limiter: rateLimiter, limits, identityId, limit: route.rate });
        throw error;
      } finally {
        releaseBody();
      }
    }
    return route.handle({ ...common, body, ...withRunSlot }, context);
  };

  const answer = (error: unknown, requestId: string, method: string, path: string): Response => {
    observability.requestFailed(error, requestId);
    return answerFailure({ error, requestId, method, path, typeBase, onError });
  };

  const serve = async (request: Request, edge: AgentEdge): Promise<Response> => {
    const header = request.headers.get(REQUEST_ID_HEADER);
    const requestId = header !== null && REQUEST_ID_PATTERN.test(header) ? header : ids('req');
    let corsHeaders: Record<string, string> = {};
    let pathname = '';
    // Everything that can throw on what the client sent runs inside this guard.
    try {
      const url = parseRequestTarget(request.url);
      pathname = url.pathname;
      const operations = observability.serveOperations(request, pathname, edge.remoteAddress);
      if (operations !== null) return await operations;
      if (cors !== null) {
        const decision = cors(request);
        corsHeaders = decision.headers;
        if (decision.preflight !== null) return decision.preflight;
      }
      const named = nameClient(edge.remoteAddress, {
        forwarded: request.headers.get('forwarded') ?? undefined,
        xForwardedFor: request.headers.get('x-forwarded-for') ?? undefined,
      });
      // A client nobody can name shares no per-client limit with anyone (only the totals bind it).
      const client = named ?? `unnamed:${requestId}`;
      const release = edge.admit(client);
      const path = basePathOf(pathname) ? pathname.slice(basePath.length) : '';
      const counted = observability.trackRequest(request.method, path);
      let response: Response;
      try {
        response = await observability.serveRequest(request, requestId, () =>
          serveMatched(request, requestId, path, url, client),
        );
      } catch (error) {
        response = answer(error, requestId, request.method, pathname);
      }
      const status = response.status;
      return whenBodyDone(withHeaders(response, corsHeaders), () => {
        release();
        counted(status);
      });
    } catch (error) {
      return withHeaders(answer(error, requestId, request.method, pathname), corsHeaders);
    }
  };

  return {
    serve,
    serves: (pathname) => basePathOf(pathname) || observability.servesOperations(pathname),
    answerUnreadable: (error, request) => {
      const header = request.requestIdHeader;
      const requestId = header !== undefined && REQUEST_ID_PATTERN.test(header) ? header : ids('req');
      return answer(error, requestId, request.method, request.path);
    },
    admission,
    log: observability.log,
    store,
    storage,
    stats: () => {
      const held = admission.stats();
      return {
        requests: held.requests,
        streams: context.streams.size,
        bodies: held.bodies,
        liveRuns: held.runs,
        parkedRuns: held.parkedRuns,
      };
    },
    readiness: () => observability.readiness(),
    close: async () => {
      isClosed = true;
      observability.close();
      clock.clearTimeout(sweeper);
      load.close();
      browserTools?.executors.close();
      store.close();
      const streams = context.streams.all();
      for (const stream of streams) stream.close();
      await Promise.all(streams.map((stream) => stream.done));
    },
  };
}

/**
 * The identity binding: the product's own `identityFor`, else the keyed hash with `identitySecret`,
 * else with a secret generated once and kept in the storage (so a restart keeps every binding),
 * read again now and then so every process follows the stored one (`createStoredSecret`).
 */
function resolveIdentityFor(
  options: AgentServerOptions,
  storedSecret: (name: string) => StoredSecret,
): (subject: Subject) => Promise<string> {
  const own = options.identityFor;
  if (own !== undefined) return async (subject) => own(subject);
  if (options.identitySecret !== undefined) {
    const keyed = createIdentityFor(options.identitySecret);
    return async (subject) => keyed(subject);
  }
  const stored = storedSecret('identity_secret');
  let bound: { secret: string; identityFor: (subject: Subject) => string } | undefined;
  return async (subject) => {
    const secret = await stored();
    if (bound?.secret !== secret) bound = { secret, identityFor: createIdentityFor(secret) };
    return bound.identityFor(subject);
  };
}
