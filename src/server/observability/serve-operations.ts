import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentMetrics } from './agent-metrics.ts';
import type { MetricsOptions } from './metrics-options.ts';
import type { ReadinessReport } from './check-readiness.ts';

/** The operator routes, at the server's root (outside `{basePath}`). */
export const OPERATIONS_PATHS = { metrics: '/metrics', liveness: '/healthz', readiness: '/readyz' } as const;

/**
 * Headers browsers send and scrapers do not: a request with any of them is refused `/metrics`
 * unless `allowBrowsers` (`Sec-Fetch-Mode` is not one: Node's `fetch` sends it too).
 */
const BROWSER_SIGNALS = ['origin', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'] as const;

/** Options of {@link serveOperations}. */
export interface OperationsOptions {
  metrics: AgentMetrics | null;
  metricsOptions: MetricsOptions;
  hasProbes: boolean;
  readiness: () => Promise<ReadinessReport>;
  onError: (error: unknown) => void;
}

/**
 * Answers `/metrics` (when metrics are on), `/healthz` and `/readyz` (when probes are on);
 * returns false for anything else. `/metrics` is refused (`403`) to requests with browser
 * signals and, with a `bearerToken`, to requests without it (`401`).
 */
export function serveOperations(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  options: OperationsOptions,
): boolean {
  const { metrics } = options;
  const isMetrics = metrics !== null && pathname === OPERATIONS_PATHS.metrics;
  const isProbe =
    options.hasProbes && (pathname === OPERATIONS_PATHS.liveness || pathname === OPERATIONS_PATHS.readiness);
  if (!isMetrics && !isProbe) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    answer(res, 405, 'text/plain; charset=utf-8', 'Use GET.\n', { Allow: 'GET, HEAD' });
    return true;
  }
  if (isMetrics) {
    const refusal = refuseScrape(req, options.metricsOptions);
    if (refusal !== null) {
      answer(res, refusal.status, 'text/plain; charset=utf-8', `${refusal.text}\n`, refusal.headers);
      return true;
    }
    metrics.registry.metrics().then(
      (text) => answer(res, 200, metrics.registry.contentType, text),
      (error: unknown) => {
        options.onError(error);
        answer(res, 500, 'text/plain; charset=utf-8', 'Metrics failed.\n');
      },
    );
    return true;
  }
  if (pathname === OPERATIONS_PATHS.liveness) {
    answer(res, 200, 'application/json', '{"status":"ok"}');
    return true;
  }
  options.readiness().then(
    (report) =>
      answer(
        res,
        report.ready ? 200 : 503,
        'application/json',
        JSON.stringify({ status: report.ready ? 'ready' : 'not_ready', checks: report.checks }),
      ),
    (error: unknown) => {
      options.onError(error);
      answer(res, 503, 'application/json', '{"status":"not_ready"}');
    },
  );
  return true;
}

function refuseScrape(
  req: IncomingMessage,
  options: MetricsOptions,
): { status: number; text: string; headers?: Record<string, string> } | null {
  if (options.allowBrowsers !== true && BROWSER_SIGNALS.some((name) => req.headers[name] !== undefined)) {
    return { status: 403, text: 'Metrics are not served to browsers.' };
  }
  if (options.bearerToken === undefined) return null;
  const sent = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
  const expected = Buffer.from(options.bearerToken);
  const given = Buffer.from(sent);
  if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  return { status: 401, text: 'Send the metrics bearer token.', headers: { 'WWW-Authenticate': 'Bearer' } };
}

function answer(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
