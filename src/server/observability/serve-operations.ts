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

/** Whether `pathname` is an operator route that is on (so {@link serveOperations} answers it). */
export function isOperationsPath(pathname: string, options: Pick<OperationsOptions, 'metrics' | 'hasProbes'>): boolean {
  if (options.metrics !== null && pathname === OPERATIONS_PATHS.metrics) return true;
  return options.hasProbes && (pathname === OPERATIONS_PATHS.liveness || pathname === OPERATIONS_PATHS.readiness);
}

/**
 * Answers `/metrics` (when metrics are on), `/healthz` and `/readyz` (when probes are on);
 * returns null for anything else. `/metrics` is refused (`403`) to requests with browser
 * signals and, with a `bearerToken`, to requests without it (`401`).
 */
export function serveOperations(
  request: Request,
  pathname: string,
  options: OperationsOptions,
): Promise<Response> | null {
  const { metrics } = options;
  const isMetrics = metrics !== null && pathname === OPERATIONS_PATHS.metrics;
  const isProbe =
    options.hasProbes && (pathname === OPERATIONS_PATHS.liveness || pathname === OPERATIONS_PATHS.readiness);
  if (!isMetrics && !isProbe) return null;
  const answer = (status: number, type: string, body: string, headers: Record<string, string> = {}): Response =>
    new Response(request.method === 'HEAD' ? null : body, {
      status,
      headers: { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers },
    });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Promise.resolve(answer(405, 'text/plain; charset=utf-8', 'Use GET.\n', { Allow: 'GET, HEAD' }));
  }
  if (isMetrics) {
    const refusal = refuseScrape(request, options.metricsOptions);
    if (refusal !== null) {
      return Promise.resolve(answer(refusal.status, 'text/plain; charset=utf-8', `${refusal.text}\n`, refusal.headers));
    }
    return metrics.registry.metrics().then(
      (text) => answer(200, metrics.registry.contentType, text),
      (error: unknown) => {
        options.onError(error);
        return answer(500, 'text/plain; charset=utf-8', 'Metrics failed.\n');
      },
    );
  }
  if (pathname === OPERATIONS_PATHS.liveness)
    return Promise.resolve(answer(200, 'application/json', '{"status":"ok"}'));
  return options.readiness().then(
    (report) =>
      answer(
        report.ready ? 200 : 503,
        'application/json',
        JSON.stringify({ status: report.ready ? 'ready' : 'not_ready', checks: report.checks }),
      ),
    (error: unknown) => {
      options.onError(error);
      return answer(503, 'application/json', '{"status":"not_ready"}');
    },
  );
}

function refuseScrape(
  request: Request,
  options: MetricsOptions,
): { status: number; text: string; headers?: Record<string, string> } | null {
  if (options.allowBrowsers !== true && BROWSER_SIGNALS.some((name) => request.headers.has(name))) {
    return { status: 403, text: 'Metrics are not served to browsers.' };
  }
  if (options.bearerToken === undefined) return null;
  const sent = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
  if (isSameSecret(sent, options.bearerToken)) return null;
  return { status: 401, text: 'Send the metrics bearer token.', headers: { 'WWW-Authenticate': 'Bearer' } };
}

/** Compares two secrets in time that depends only on their lengths (never on where they differ). */
function isSameSecret(given: string, expected: string): boolean {
  const encoder = new TextEncoder();
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  if (a.byteLength !== b.byteLength) return false;
  let difference = 0;
  for (let index = 0; index < a.byteLength; index += 1) difference |= (a[index] as number) ^ (b[index] as number);
  return difference === 0;
}
