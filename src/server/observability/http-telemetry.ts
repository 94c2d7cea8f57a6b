import { DomainError } from '../domain-error.ts';
import { toProblemError } from '../http/problem-error.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { RouteNameOf } from './metrics-options.ts';
import type { StructuredLog } from './structured-log.ts';

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const LIMIT_NAME = /^[A-Za-z]{1,40}$/;

/** Counts each request by its route template (never its ids) and status, and each problem by code and limit. */
export interface HttpTelemetry {
  /**
   * Starts timing a request admitted at `path` (relative to `{basePath}`); the returned function
   * counts it with its status once its answer is over (sent, or abandoned by the client).
   */
  track(method: string, path: string): (status: number) => void;
  /** A request was answered with this failure (a problem, or an unexpected error). */
  failed(error: unknown, requestId: string): void;
}

/**
 * Creates the HTTP telemetry of one handler; without metrics it only logs refusals at `debug`.
 * `routeNameOf` names a request's route (the handler's routes are not the telemetry's to know).
 */
export function createHttpTelemetry(
  metrics: AgentMetrics | null,
  log: StructuredLog,
  routeNameOf: RouteNameOf,
): HttpTelemetry {
  return {
    track(requestMethod, path) {
      if (metrics === null) return () => undefined;
      const startedAt = performance.now();
      const method = METHODS.has(requestMethod) ? requestMethod : 'other';
      const route = routeNameOf(method, path);
      return (status) => {
        metrics.httpRequests.inc({ method, route, status: String(status) });
        metrics.httpRequestDuration.observe({ method, route }, (performance.now() - startedAt) / 1000);
      };
    },
    failed(error, requestId) {
      if (!(error instanceof DomainError)) return;
      const problem = toProblemError(error);
      const { code, details } = problem.init;
      const named = details?.['limit'] ?? details?.['reason'];
      const limit = typeof named === 'string' && LIMIT_NAME.test(named) ? named : '';
      metrics?.httpRefused.inc({ code, limit });
      log.write(problem.status >= 500 ? 'warn' : 'debug', 'request_refused', {
        requestId,
        status: problem.status,
        code,
        ...(limit === '' ? {} : { limit }),
      });
    },
  };
}
