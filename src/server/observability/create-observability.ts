import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { TextMapGetter, TracerProvider } from '@opentelemetry/api';
import { context, propagation, trace } from '@opentelemetry/api';
import type { RunEngine } from '../runs/run-handle.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { MetricsGauges, MetricsOptions, RouteNameOf } from './metrics-options.ts';
import { createAgentMetrics } from './agent-metrics.ts';
import type { ReadinessReport } from './check-readiness.ts';
import { checkReadiness } from './check-readiness.ts';
import { createHttpTelemetry } from './http-telemetry.ts';
import { instrumentStorage } from './instrument-storage.ts';
import { observeEngine } from './observe-engine.ts';
import { createRunTelemetry } from './run-telemetry.ts';
import { createOperations, readMetricsSettings } from './serve-operations.ts';
import type { LogLevel, LogSink, StructuredLog } from './structured-log.ts';
import { createStructuredLog, parseLogLevel } from './structured-log.ts';

/** The handler's options for metrics, traces, logs and probes (docs/operations.md). */
export interface ObservabilityOptions {
  /**
   * Serves Prometheus metrics at `/metrics` (needs `prom-client`). Default off. Without
   * `bearerToken` only loopback clients are served (docs/operations.md, "Metrics").
   */
  metrics?: boolean | MetricsOptions;
  /** Serves `/healthz` (liveness) and `/readyz` (readiness: the storage answers, the handler is open). Default off. */
  probes?: boolean;
  /** Where spans go. Default: the global provider of `@opentelemetry/api` (nothing is recorded until the host registers an SDK). */
  tracerProvider?: TracerProvider;
  /** The least severe log line written. Default: `AGENT_CHAT_LOG_LEVEL`, else `warn`. */
  logLevel?: LogLevel;
  /** Where log lines go. Default: one JSON line each on stderr. */
  log?: LogSink;
  /** Adds error messages and stacks to log lines (they may quote user text or provider answers). Default false. */
  logSensitive?: boolean;
}

/** What the handler asks of its observability; each call is one line in `createAgentHandler`. */
export interface Observability {
  log: StructuredLog;
  /** The storage with every call timed and each run's events observed. */
  instrumentStorage(storage: AgentStorage): AgentStorage;
  /** The engine, handed handles whose `observer` reports model calls. */
  instrumentEngine(engine: RunEngine): RunEngine;
  /**
   * Answers the operator routes (`/metrics`, `/healthz`, `/readyz`); null when `pathname` is none
   * of them (or off). `remoteAddress` is the connection's (undefined when unknown): without a
   * bearer token only a loopback one is served `/metrics`.
   */
  serveOperations(request: Request, pathname: string, remoteAddress: string | undefined): Promise<Response> | null;
  /** Whether `pathname` is an operator route that is on. */
  servesOperations(pathname: string): boolean;
  /**
   * Serves one admitted request in its scope (its request id for log lines; the caller's trace,
   * else the one its `traceparent` continues).
   */
  serveRequest(request: Request, requestId: string, serve: () => Promise<Response>): Promise<Response>;
  /** Starts counting a request by route (`path` under `{basePath}`); call the result with its status once its answer is over. */
  trackRequest(method: string, path: string): (status: number) => void;
  /** A request was answered with this failure. */
  requestFailed(error: unknown, requestId: string): void;
  /** An unexpected error (what `onError` is told), as a log line. */
  reportError(error: unknown, where: Record<string, unknown>): void;
  /** The readiness report `/readyz` answers with. */
  readiness(): Promise<ReadinessReport>;
  close(): void;
}

const READINESS_TIMEOUT_MS = 2_000;
/** Reads a `traceparent` (and the like) from Web headers. */
const HEADERS_GETTER: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};
const CONTEXT_FIELDS = ['requestId', 'runId', 'correlationId', 'where', 'method', 'path'] as const;
const METRICS_LOOPBACK_ONLY =
  '/metrics is served only to loopback clients (no metrics.bearerToken): set one to scrape from elsewhere.';
const METRICS_PUBLIC = '/metrics is served to any client without a token (metrics.allowUnauthenticated).';
const METRICS_REFUSED =
  'A scrape from elsewhere than loopback was refused (403): set metrics.bearerToken and send it from the ' +
  'scraper, or metrics.allowUnauthenticated on a listener only your scrapers reach.';

/**
 * Creates one handler's observability from its options; `gauges` are read at scrape time and
 * `routeNameOf` names each request's route for the request metrics.
 */
export function createObservability(
  options: ObservabilityOptions,
  storage: AgentStorage,
  gauges: MetricsGauges,
  routeNameOf: RouteNameOf,
): Observability {
  const metricsOptions = typeof options.metrics === 'object' ? options.metrics : {};
  const isMetricsOn = options.metrics !== undefined && options.metrics !== false;
  // Checked before prom-client starts its collectors, so a refused option leaves none behind.
  const metricsSettings = readMetricsSettings(isMetricsOn ? metricsOptions : {});
  const metrics: AgentMetrics | null = isMetricsOn ? createAgentMetrics(gauges, metricsOptions) : null;
  let subjectKey = randomBytes(32).toString('base64url');
  // One key for every process on the same storage, so a user's lines correlate across them.
  storage.getOrCreateSetting('log_subject_key', subjectKey).then(
    (stored) => (subjectKey = stored),
    () => undefined,
  );
  const log = createStructuredLog({
    level: options.logLevel ?? parseLogLevel(process.env['AGENT_CHAT_LOG_LEVEL']) ?? 'warn',
    subjectKey: () => subjectKey,
    ...(options.log === undefined ? {} : { sink: options.log }),
    isSensitive: options.logSensitive === true,
  });
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('agent-chat');
  const runs = createRunTelemetry({ metrics, tracer, log });
  const http = createHttpTelemetry(metrics, log, routeNameOf);
  const requestScope = new AsyncLocalStorage<string>();
  let instrumented: AgentStorage = storage;
  let isClosed = false;
  const reportError = (error: unknown, where: Record<string, unknown>): void => {
    const fields: Record<string, unknown> = {};
    for (const name of CONTEXT_FIELDS) if (typeof where[name] === 'string') fields[name] = where[name];
    log.write('error', fields['requestId'] === undefined ? 'background_failed' : 'request_failed', {
      ...fields,
      ...log.describeError(error),
    });
  };
  const readiness = (): Promise<ReadinessReport> =>
    checkReadiness(instrumented, { timeoutMs: READINESS_TIMEOUT_MS, isClosed });
  const operations = createOperations({
    metrics,
    metricsSettings,
    hasProbes: options.probes === true,
    readiness,
    onError: (error, pathname) => reportError(error, { where: pathname }),
    onRemoteRefused: () => log.write('warn', 'metrics_refused', { detail: METRICS_REFUSED }),
  });
  if (metrics !== null && metricsSettings.bearerToken === undefined) {
    log.write('info', 'metrics_unauthenticated', {
      detail: metricsSettings.allowUnauthenticated ? METRICS_PUBLIC : METRICS_LOOPBACK_ONLY,
    });
  }

  return {
    log,
    instrumentStorage(raw) {
      instrumented = instrumentStorage(raw, { metrics, log, runs, requestId: () => requestScope.getStore() });
      return instrumented;
    },
    instrumentEngine: (engine) => observeEngine(engine, runs),
    servesOperations: (pathname) => operations.serves(pathname),
    serveOperations: (request, pathname, remoteAddress) => operations.serve(request, pathname, remoteAddress),
    serveRequest(request, requestId, serve) {
      const active = context.active();
      // A host with HTTP instrumentation already has a server span; otherwise continue the page's trace.
      const parent =
        trace.getSpan(active) === undefined ? propagation.extract(active, request.headers, HEADERS_GETTER) : active;
      return requestScope.run(requestId, () => context.with(parent, serve));
    },
    trackRequest: (method, path) => http.track(method, path),
    requestFailed: (error, requestId) => http.failed(error, requestId),
    reportError,
    readiness,
    close() {
      isClosed = true;
      runs.close();
    },
  };
}
