import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../domain-error.ts';
import { toProblemError } from '../http/problem-error.ts';
import { matchHandlerRoute } from '../routes/match-route.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { StructuredLog } from './structured-log.ts';

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const LIMIT_NAME = /^[A-Za-z]{1,40}$/;

/** Counts each request by its route template (never its ids) and status, and each problem by code and limit. */
export interface HttpTelemetry {
  /** Starts timing a request admitted at `path` (relative to `{basePath}`); it is counted when its response closes. */
  track(req: IncomingMessage, res: ServerResponse, path: string): void;
  /** A request was answered with this failure (a problem, or an unexpected error). */
  failed(error: unknown, requestId: string): void;
}

/** Creates the HTTP telemetry of one handler; without metrics it only logs refusals at `debug`. */
export function createHttpTelemetry(metrics: AgentMetrics | null, log: StructuredLog): HttpTelemetry {
  return {
    track(req, res, path) {
      if (metrics === null) return;
      const startedAt = performance.now();
      const method = METHODS.has(req.method ?? '') ? (req.method as string) : 'other';
      const route = routeTemplate(method, path);
      res.once('close', () => {
        metrics.httpRequests.inc({ method, route, status: String(res.statusCode) });
        metrics.httpRequestDuration.observe({ method, route }, (performance.now() - startedAt) / 1000);
      });
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

/** The route's template under `{basePath}` (`/v1/runs/{runId}/events`), `unmatched` for anything else. */
function routeTemplate(method: string, path: string): string {
  try {
    const { route } = matchHandlerRoute(method, path);
    return path.startsWith('/v1/') ? `/v1${route.template}` : route.template;
  } catch {
    return 'unmatched';
  }
}
