import { pickDefined } from '../core/pick-defined.ts';
import type { SendContextHooks } from './routes/send-context-hooks.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Capabilities, Limits, ModelInfo, StreamSettings } from '../core/protocol.ts';
import { IDENTITY_HEADER, PROTOCOL_HEADER, REQUEST_ID_HEADER } from '../core/protocol.ts';
import {
  DEFAULT_AGENT,
  DEFAULT_BROWSER_TOOL_LIMITS,
  DEFAULT_CAPABILITIES,
  DEFAULT_EXECUTOR_CAPS,
  DEFAULT_EDGE_LIMITS,
  DEFAULT_LIMITS,
  DEFAULT_MODELS,
  DEFAULT_RETENTION,
  DEFAULT_STREAM_SETTINGS,
  STORED_SECRET_REFRESH_MS,
} from './agent-handler-defaults.ts';
import { answerFailure } from './http/answer-failure.ts';
import { createClientAddressOf } from './http/client-address.ts';
import { createEdgeAdmission } from './http/edge-admission.ts';
import { createLoadMonitor } from './http/load-monitor.ts';
import type { EdgeLimits, RunSlot } from './http/edge-admission.ts';
import { createCors, type CorsOptions } from './http/cors.ts';
import { parseRequestTarget } from './http/parse-request-target.ts';
import { ProblemError } from './http/problem-error.ts';
import { isMalformedBody, readJsonBody } from './http/read-json-body.ts';
import { createIdempotencyStore } from './idempotency/idempotency-store.ts';
import { createIdentityFor } from './identity-for.ts';
import { createUlidIds } from './ids/create-ulid-ids.ts';
import { createBrowserToolRuntime } from './executors/browser-tool-runtime.ts';
import type { CanUseExecutor } from './executors/browser-tool-runtime.ts';
import { createRateLimits, enforceRateLimit } from './limits/rate-limits.ts';
import type { HandlerLimits } from './limits/rate-limits.ts';
import { bootstrapRoute } from './routes/bootstrap-route.ts';
import { matchHandlerRoute } from './routes/match-route.ts';
import type { AgentInfo, HandlerContext, Route } from './routes/route-context.ts';
import { checkAgentInfo } from './routes/route-context.ts';
import type { RunEngine, Subject } from './runs/run-handle.ts';
import type { RunStore } from './runs/run-store.ts';
import type { SuggestSessionTitle } from './runs/session-titles.ts';
import { createRunStore } from './runs/run-store.ts';
import { createStreamRegistry } from './sse/stream-registry.ts';
import { createMemoryStorage } from './storage/memory-storage.ts';
import type { ObservabilityOptions } from './observability/create-observability.ts';
import type { ReadinessReport } from './observability/check-readiness.ts';
import { createObservability } from './observability/create-observability.ts';
import type { AgentStorage } from './storage/storage-port.ts';
import type { Clock } from '../core/clock.ts';
import { createSystemClock } from '../core/clock.ts';
import type { StoredSecret } from './stored-secret.ts';
import { createStoredSecret } from './stored-secret.ts';
import { unrefTimer } from './unref-timer.ts';

/**
 * Options of {@link createAgentHandler}: the product's callbacks (with `resolveContextRefs` and
 * `checkBalance`, docs/server.md "Context") and the server's settings.
 */
export interface AgentHandlerOptions extends SendContextHooks, ObservabilityOptions {
  /** Resolves the product's user from its own cookie/session; `null` → `401 UNAUTHENTICATED`. */
  authenticate: (req: IncomingMessage) => Subject | null | Promise<Subject | null>;
  /** Whether the user may use the agent at all; `false` → `403 FORBIDDEN`. */
  canUseAgent?: (subject: Subject) => boolean | Promise<boolean>;
  /** Drives runs (the agent loop); the handler calls `engine.start(handle)` once per run. */
  engine: RunEngine;
  /** Where the protocol is mounted; it lives at `{basePath}/v1/*`. Default `/api/agent`. */
  basePath?: string;
  agent?: AgentInfo;
  models?: ModelInfo[];
  capabilities?: Capabilities;
  limits?: Partial<Limits>;
  stream?: Partial<StreamSettings>;
  /** Time and timers for timestamps, expiry, reapers and stream timers. Default: the system clock. */
  clock?: Clock;
  /**
   * Suggests a new session's title from its first message (e.g. a short model call), in the
   * background; it replaces the default (the message's first line) unless the user renamed it.
   */
  suggestTitle?: SuggestSessionTitle;
  /** Mints ids: `ids('run')` → `run_…`. Default: ULIDs. */
  ids?: (prefix: string) => string;
  /**
   * Where everything is kept (docs/server.md, "Storage"): sessions, runs and their logs,
   * idempotency records, leases, the identity secret. Default: in memory (nothing survives the
   * process); `openSqliteStorage` keeps it in a file. The handler never closes it.
   */
  storage?: AgentStorage;
  idempotency?: { lockTtlMs?: number };
  /**
   * Store-wide caps (per-identity ones are in `limits`): sessions and runs kept at most; past them
   * the least recently active idle sessions of the identities holding the most are evicted
   * (docs/server.md, "Retention").
   */
  retention?: { maxSessions?: number; maxRuns?: number };
  /** The identity binding of a subject (≤ 64 chars). Default: a keyed hash of the subject id (see `identitySecret`). */
  identityFor?: (subject: Subject) => string;
  /**
   * The secret of the default identity binding. Default: generated once and kept in `storage`, so
   * the same user keeps the same `identityId` across restarts of a durable store.
   */
  identitySecret?: string;
  /** How long a run's lease lasts unless its process renews it; a dead process's runs end after it. Default 10 000. */
  leaseTtlMs?: number;
  /** How long a cancelled run may take to finish before it is force-closed. Default 30 000 ms. */
  cancelGraceMs?: number;
  /** Base of each problem's `type` URI; the kebab-case code is appended. */
  problemTypeBase?: string;
  /** Also told about unexpected errors (never the browser), beside the `request_failed` log line (docs/operations.md). */
  onError?: (error: unknown, context: Record<string, unknown>) => void;
  /** A request body must arrive within this many ms of the first read, else `408`. Default 30 000. */
  requestBodyTimeoutMs?: number;
  /** An event stream whose client has taken no bytes for this long is cut (it resumes). Default 30 000. */
  streamStallTimeoutMs?: number;
  /**
   * Lets pages on other origins call the API (docs/server.md, "Another origin"): an allow-list of
   * origins, never `*`. Default: none, so only same-origin pages can read the answers.
   */
  cors?: CorsOptions;
  /** Open event streams per identity; past it the identity's oldest one is closed. Default 10. */
  maxStreamsPerIdentity?: number;
  /** Requests served at once, open event streams included; past it `503` + `Retry-After`. Default 5 000. */
  maxConnections?: number;
  /**
   * The handler's other limits per network client and in all (docs/server.md, "Overload"):
   * connections, bodies and streams per client, streams and live runs in all (past these a new
   * run is shed with `503`) and per client. Defaults: {@link DEFAULT_EDGE_LIMITS}.
   */
  edgeLimits?: Partial<Omit<EdgeLimits, 'maxConnections' | 'retryAfterMs'>>;
  /**
   * The addresses or CIDR subnets of your own load balancers or proxies, whose `Forwarded` /
   * `X-Forwarded-For` then names the network client (docs/server.md, "Overload"). Default none:
   * the client is the socket's remote address and forwarded headers are ignored.
   */
  trustProxy?: readonly string[];
  /**
   * Whether `subject` may run browser tools as the executor `executorId` (docs/protocol.md §19).
   * Without it browser tools are off: declarations are ignored and every executor request is
   * `403 FORBIDDEN` (fail closed).
   */
  canUseExecutor?: CanUseExecutor;
  /**
   * The key of claim grants (≥ 32 bytes). Default: generated once and kept in `storage`, so a
   * grant stays valid across restarts of a durable store.
   */
  grantSecret?: Uint8Array | string;
}

/** What a handler is serving right now. */
export interface AgentHandlerStats {
  /** Requests in progress, open event streams included. */
  requests: number;
  /** Open event streams. */
  streams: number;
  /** Request bodies being read. */
  bodies: number;
  /** Runs created by this handler that have not ended. */
  liveRuns: number;
}

/** A Node `(req, res, next?)` handler serving the protocol, plus its store and a `close`. */
export type AgentHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => void) & {
  /** Ends every open event stream and stops timers; runs are left to their engines. */
  close(): Promise<void>;
  /** The sessions and runs this handler serves (for tests and operators). */
  store: RunStore;
  /** The storage this handler keeps everything in. */
  storage: AgentStorage;
  /** What the handler is serving right now (for tests and operators). */
  stats(): AgentHandlerStats;
  /** What `/readyz` would answer: whether the storage answers and the handler is open (for a host's own probe route). */
  readiness(): Promise<ReadinessReport>;
};

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * Creates the framework-free protocol v1 handler (docs/protocol.md): mount it in `http.createServer`,
 * Express or Fastify. Outside `{basePath}` it calls `next()` (or answers `404`); a target that is
 * not a URL at all is `400` either way. Every answer carries `X-Request-Id`; every failure is
 * `application/problem+json` with a code, never a stack, and nothing a client sends throws out of
 * it. Past `maxConnections` requests at once, `maxStreams` streams or `maxLiveRuns` live runs it
 * answers `503 AGENT_UNAVAILABLE` with `Retry-After` (load shedding), past a network client's share
 * of any of them `429 RATE_LIMITED` (docs/server.md, "Overload").
 */
export function createAgentHandler(options: AgentHandlerOptions): AgentHandler {
  // Checked before anything starts, so a refused option leaves no timer or store behind.
  const agent = checkAgentInfo(options.agent ?? DEFAULT_AGENT);
  const clock = options.clock ?? createSystemClock();
  const ids = options.ids ?? createUlidIds(clock);
  const basePath = (options.basePath ?? '/api/agent').replace(/\/+$/, '');
  const limits: HandlerLimits = { ...DEFAULT_LIMITS, ...DEFAULT_BROWSER_TOOL_LIMITS, ...options.limits };
  const maxConnections = options.maxConnections ?? DEFAULT_EDGE_LIMITS.maxConnections;
  const clientAddressOf = createClientAddressOf(options.trustProxy);
  const edgeLimits: EdgeLimits = {
    maxConnections,
    maxConnectionsPerClient: DEFAULT_EDGE_LIMITS.maxConnectionsPerClient,
    maxBodiesPerClient: DEFAULT_EDGE_LIMITS.maxBodiesPerClient,
    maxStreams: DEFAULT_EDGE_LIMITS.maxStreams,
    maxStreamsPerClient: DEFAULT_EDGE_LIMITS.maxStreamsPerClient,
    maxLiveRuns: DEFAULT_EDGE_LIMITS.maxLiveRuns,
    maxLiveRunsPerClient: DEFAULT_EDGE_LIMITS.maxLiveRunsPerClient,
    newClientRunReserve: DEFAULT_EDGE_LIMITS.newClientRunReserve,
    shedAtEventLoopUtilization: DEFAULT_EDGE_LIMITS.shedAtEventLoopUtilization,
    ...options.edgeLimits,
    retryAfterMs: DEFAULT_EDGE_LIMITS.capacityRetryAfterMs,
  };
  const load = createLoadMonitor({ threshold: edgeLimits.shedAtEventLoopUtilization });
  const admission = createEdgeAdmission(edgeLimits, load);
  const requestBodyTimeoutMs = options.requestBodyTimeoutMs ?? DEFAULT_EDGE_LIMITS.requestBodyTimeoutMs;
  const ownStorage = options.storage ?? createMemoryStorage();
  const observability = createObservability(options, ownStorage, {
    streams: () => context.streams.size,
    requests: () => admission.stats().requests,
  });
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
  const store = createRunStore({
    storage,
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
          onError,
        });
  const context: HandlerContext = {
    store,
    storage,
    idempotency,
    agent,
    models: options.models ?? DEFAULT_MODELS,
    capabilities: {
      ...(options.capabilities ?? DEFAULT_CAPABILITIES),
      browserTools: { supported: browserTools !== null },
    },
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
        .catch((error: unknown) => onError(error, { where: 'sweep' }))
        .finally(scheduleSweep);
    }, sweepEveryMs);
    unrefTimer(sweeper);
  };
  scheduleSweep();
  // Runs a dead process left behind (their leases expired while no server ran) end or resume now.
  void store.reap().catch((error: unknown) => onError(error, { where: 'reaper' }));

  const serve = async (
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    path: string,
    url: URL,
    client: string,
  ): Promise<void> => {
    const { route, params } = matchHandlerRoute(req.method ?? 'GET', path);
    // Global and per-client caps come before authentication: shedding must stay cheap.
    const releaseStream = route.opensStream === true ? admission.holdStream(client) : null;
    let runSlot: RunSlot | undefined;
    try {
      if (route.createsRun === true) runSlot = admission.reserveRun(client);
      await serveRoute({ req, res, requestId, url, route, params, client, runSlot });
    } finally {
      releaseStream?.();
      runSlot?.release();
    }
  };

  const serveRoute = async (request: {
    req: IncomingMessage;
    res: ServerResponse;
    requestId: string;
    url: URL;
    route: Route;
    params: Record<string, string>;
    client: string;
    runSlot: RunSlot | undefined;
  }): Promise<void> => {
    const { req, res, requestId, url, route, params, client, runSlot } = request;
    const protocol = req.headers[PROTOCOL_HEADER];
    if (protocol !== undefined && !/^\s*1(\.\d+)?\s*$/.test(String(protocol))) {
      throw new ProblemError({
        code: 'PROTOCOL_VERSION_UNSUPPORTED',
        detail: 'This server speaks protocol 1.',
        details: { supported: ['1'] },
      });
    }
    const subject = await options.authenticate(req);
    if (subject === null) throw new ProblemError({ code: 'UNAUTHENTICATED', detail: 'Sign in to use the agent.' });
    if (options.canUseAgent !== undefined && !(await options.canUseAgent(subject))) {
      throw new ProblemError({ code: 'FORBIDDEN', detail: 'You may not use this agent.' });
    }
    const identityId = await identityFor(subject);
    const claimed = req.headers[IDENTITY_HEADER];
    if (route !== bootstrapRoute) {
      if (claimed !== undefined && claimed !== identityId) {
        throw new ProblemError({ code: 'IDENTITY_CHANGED', detail: 'The signed-in user changed; bootstrap again.' });
      }
      if (claimed === undefined && route.method !== 'GET' && route.csrfGuard !== 'json-body') {
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
    let body: unknown = {};
    if (route.method !== 'GET') {
      const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if ((hasBody || route.csrfGuard === 'json-body') && type !== 'application/json') {
        throw new ProblemError({ code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'Send the body as application/json.' });
      }
      const releaseBody = admission.holdBody(client);
      try {
        body = await readJsonBody(req, { maxBytes: limits.maxRequestBytes, timeoutMs: requestBodyTimeoutMs, clock });
      } catch (error) {
        // A body that is not JSON is an attempt like any other: it counts against the route's rate.
        if (route.rate !== undefined && isMalformedBody(error))
          await enforceRateLimit({ limiter: rateLimiter, limits, identityId, limit: route.rate });
        throw error;
      } finally {
        releaseBody();
      }
    }
    await route.handle(
      { req, res, url, params, requestId, subject, identityId, body, ...(runSlot === undefined ? {} : { runSlot }) },
      context,
    );
  };

  const handler = ((req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    const header = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : ids('req');
    const answerWith = (error: unknown): void => {
      observability.requestFailed(error, requestId);
      answerFailure({ req, res, error, requestId, typeBase, onError });
    };
    // Everything that can throw on what the client sent runs inside this guard or inside `serve`.
    try {
      const url = parseRequestTarget(req.url);
      if (observability.serveOperations(req, res, url.pathname)) return;
      const inBase = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
      if (!inBase && next !== undefined) {
        next();
        return;
      }
      if (cors?.(req, res)) return;
      const client = clientAddressOf(req);
      const release = admission.admitRequest(req, res, client);
      const path = inBase ? url.pathname.slice(basePath.length) : '';
      observability
        .serveRequest(req, res, requestId, path, () => serve(req, res, requestId, path, url, client))
        .catch(answerWith)
        // The handler is done: a response queued behind another on its socket holds no slot.
        .finally(() => {
          if (res.writableEnded) release();
        });
    } catch (error) {
      answerWith(error);
    }
  }) as AgentHandler;
  handler.store = store;
  handler.storage = storage;
  handler.stats = () => {
    const held = admission.stats();
    return { requests: held.requests, streams: context.streams.size, bodies: held.bodies, liveRuns: held.runs };
  };
  handler.readiness = () => observability.readiness();
  handler.close = async () => {
    isClosed = true;
    observability.close();
    clock.clearTimeout(sweeper);
    load.close();
    browserTools?.executors.close();
    store.close();
    const streams = context.streams.all();
    for (const stream of streams) stream.close();
    await Promise.all(streams.map((stream) => stream.done));
  };
  return handler;
}

/**
 * The identity binding: the product's own `identityFor`, else the keyed hash with `identitySecret`,
 * else with a secret generated once and kept in the storage (so a restart keeps every binding),
 * read again now and then so every process follows the stored one (`createStoredSecret`).
 */
function resolveIdentityFor(
  options: AgentHandlerOptions,
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
