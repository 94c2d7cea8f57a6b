import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackAddress } from '../http/client-address.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { MetricsOptions } from './metrics-options.ts';
import type { ReadinessReport } from './check-readiness.ts';
import { createScrapeGate } from './scrape-gate.ts';

/** The operator routes, at the server's root (outside `{basePath}`). */
export const OPERATIONS_PATHS = { metrics: '/metrics', liveness: '/healthz', readiness: '/readyz' } as const;

/** How long one collection is served again (`metrics.cacheMs`). */
export const DEFAULT_METRICS_CACHE_MS = 1_000;
/** Scrapes served per second in all (`metrics.maxScrapesPerSecond`). */
export const DEFAULT_MAX_SCRAPES_PER_SECOND = 10;

/**
 * Headers browsers send and scrapers do not: a request with any of them is refused `/metrics`
 * unless `allowBrowsers` (`Sec-Fetch-Mode` is not one: Node's `fetch` sends it too).
 */
const BROWSER_SIGNALS = ['origin', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'] as const;
/** Headers a proxy adds: a request with any of them came through one, so its loopback socket says nothing. */
const FORWARDING_SIGNALS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

const LOOPBACK_ONLY =
  'Metrics are served only to loopback clients: set metrics.bearerToken and scrape with it ' +
  '(or metrics.allowUnauthenticated on a listener only your scrapers reach).';

/** The `metrics` options with their defaults, checked. */
export interface MetricsSettings {
  allowBrowsers: boolean;
  bearerToken: string | undefined;
  allowUnauthenticated: boolean;
  cacheMs: number;
  maxScrapesPerSecond: number;
}

/** Reads `metrics` options into {@link MetricsSettings}; throws naming the option for a value it cannot use. */
export function readMetricsSettings(options: MetricsOptions): MetricsSettings {
  const { bearerToken, cacheMs = DEFAULT_METRICS_CACHE_MS } = options;
  const maxScrapesPerSecond = options.maxScrapesPerSecond ?? DEFAULT_MAX_SCRAPES_PER_SECOND;
  if (bearerToken !== undefined && (typeof bearerToken !== 'string' || bearerToken.trim() === '')) {
    throw new TypeError('metrics.bearerToken must be a non-empty string (leave it out for loopback-only metrics).');
  }
  if (typeof cacheMs !== 'number' || !(cacheMs >= 0) || !Number.isFinite(cacheMs)) {
    throw new RangeError(`metrics.cacheMs must be a number of milliseconds of at least 0, got ${String(cacheMs)}.`);
  }
  if (typeof maxScrapesPerSecond !== 'number' || !(maxScrapesPerSecond > 0)) {
    throw new RangeError(
      `metrics.maxScrapesPerSecond must be a number above 0 (or Infinity), got ${String(maxScrapesPerSecond)}.`,
    );
  }
  return {
    allowBrowsers: options.allowBrowsers === true,
    bearerToken,
    allowUnauthenticated: options.allowUnauthenticated === true,
    cacheMs,
    maxScrapesPerSecond,
  };
}

/** Options of {@link createOperations}. */
export interface OperationsOptions {
  metrics: AgentMetrics | null;
  metricsSettings: MetricsSettings;
  hasProbes: boolean;
  readiness: () => Promise<ReadinessReport>;
  /** An unexpected failure answering `pathname`. */
  onError: (error: unknown, pathname: string) => void;
  /** Told once: the first scrape refused for coming from elsewhere than loopback without a token. */
  onRemoteRefused?: () => void;
}

/** One handler's operator routes. */
export interface Operations {
  /** Whether `pathname` is an operator route that is on (so {@link Operations.serve} answers it). */
  serves(pathname: string): boolean;
  /**
   * Answers `/metrics` (when metrics are on), `/healthz` and `/readyz` (when probes are on);
   * returns null for anything else. `remoteAddress` is the address the request's connection came
   * from (undefined when unknown), which decides whether a scrape without a token is served.
   */
  serve(request: Request, pathname: string, remoteAddress: string | undefined): Promise<Response> | null;
}

/**
 * Creates the operator routes. `/metrics` is refused (`403`) to requests with browser signals
 * (unless `allowBrowsers`); with a `bearerToken`, to requests without it (`401`); without one,
 * to every client but a loopback one (`403`, unless `allowUnauthenticated`): a socket address in
 * `127.0.0.0/8` or `::1` and no forwarding header (a proxy on the same host would look like
 * loopback). Scrapes served share and reuse collections and past `maxScrapesPerSecond` are `429`
 * (see {@link createScrapeGate}).
 */
export function createOperations(options: OperationsOptions): Operations {
  const { metrics, metricsSettings: settings } = options;
  const gate =
    metrics === null
      ? null
      : createScrapeGate({
          collect: () => metrics.registry.metrics(),
          cacheMs: settings.cacheMs,
          maxPerSecond: settings.maxScrapesPerSecond,
        });
  let isRemoteRefusalTold = false;
  const isMetricsPath = (pathname: string): boolean => metrics !== null && pathname === OPERATIONS_PATHS.metrics;
  const isProbePath = (pathname: string): boolean =>
    options.hasProbes && (pathname === OPERATIONS_PATHS.liveness || pathname === OPERATIONS_PATHS.readiness);

  const refuseScrape = (request: Request, remoteAddress: string | undefined): Refusal | null => {
    if (!settings.allowBrowsers && BROWSER_SIGNALS.some((name) => request.headers.has(name))) {
      return { status: 403, text: 'Metrics are not served to browsers.' };
    }
    if (settings.bearerToken !== undefined) {
      const sent = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
      if (isSameSecret(sent, settings.bearerToken)) return null;
      return { status: 401, text: 'Send the metrics bearer token.', headers: { 'WWW-Authenticate': 'Bearer' } };
    }
    if (settings.allowUnauthenticated) return null;
    const isProxied = FORWARDING_SIGNALS.some((name) => request.headers.has(name));
    if (!isProxied && isLoopbackAddress(remoteAddress)) return null;
    if (!isRemoteRefusalTold) {
      isRemoteRefusalTold = true;
      options.onRemoteRefused?.();
    }
    return { status: 403, text: LOOPBACK_ONLY };
  };

  return {
    serves: (pathname) => isMetricsPath(pathname) || isProbePath(pathname),
    serve(request, pathname, remoteAddress) {
      const isMetrics = isMetricsPath(pathname);
      if (!isMetrics && !isProbePath(pathname)) return null;
      const answer = (status: number, type: string, body: string, headers: Record<string, string> = {}): Response =>
        new Response(request.method === 'HEAD' ? null : body, {
          status,
          headers: {
            'Content-Type': type,
            'Cache-Control': 'no-store',
            'X-Content-Type-Options': 'nosniff',
            ...headers,
          },
        });
      const text = (status: number, body: string, headers?: Record<string, string>): Promise<Response> =>
        Promise.resolve(answer(status, 'text/plain; charset=utf-8', `${body}\n`, headers));
      if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Use GET.', { Allow: 'GET, HEAD' });
      if (isMetrics && metrics !== null && gate !== null) {
        const refusal = refuseScrape(request, remoteAddress);
        if (refusal !== null) return text(refusal.status, refusal.text, refusal.headers);
        const scrape = gate.scrape();
        if ('retryAfterSeconds' in scrape) {
          const seconds = String(scrape.retryAfterSeconds);
          return text(429, `Too many scrapes; retry after ${seconds} s.`, { 'Retry-After': seconds });
        }
        return scrape.text.then(
          (exposition) => answer(200, metrics.registry.contentType, exposition),
          (error: unknown) => {
            options.onError(error, pathname);
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
          options.onError(error, pathname);
          return answer(503, 'application/json', '{"status":"not_ready"}');
        },
      );
    },
  };
}

interface Refusal {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

/**
 * Compares two secrets in constant time: both are hashed to 32 bytes first, so neither where they
 * differ nor the expected one's length shows in the time taken.
 */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
