// Kept apart from agent-metrics.ts, whose types name prom-client's: the handler's public types
// reach this file, and a product without the optional prom-client must still type-check them.

/** What the metrics read at scrape time from the handler (gauges of what it serves right now). */
export interface MetricsGauges {
  streams(): number;
  requests(): number;
}

/** Options of `metrics` on the handler (docs/operations.md, "Metrics"). */
export interface MetricsOptions {
  /** Serves `/metrics` to requests with browser signals too (`Origin`, `Sec-Fetch-*`). Default false. */
  allowBrowsers?: boolean;
  /**
   * When set, `/metrics` requires `Authorization: Bearer <token>` (Prometheus `authorization` in a
   * scrape config) from every client. Without it `/metrics` is served only to loopback clients
   * (unless `allowUnauthenticated`).
   */
  bearerToken?: string;
  /**
   * Without a `bearerToken`, serves `/metrics` to any client, not only to loopback ones (for a
   * listener only your scrapers reach). Default false.
   */
  allowUnauthenticated?: boolean;
  /** How long one collection is served again to later scrapes, in milliseconds (0: collect every time). Default 1000. */
  cacheMs?: number;
  /** Scrapes served per second in all (a burst of as many), past which `/metrics` is `429` with `Retry-After`. Default 10. */
  maxScrapesPerSecond?: number;
  /** Adds prom-client's process and Node metrics (`process_*`, `nodejs_*`) to the handler's registry. Default true. */
  processMetrics?: boolean;
}

/**
 * Names the route of a request at `path` (relative to `{basePath}`) for metrics: its template
 * (`/v1/runs/{runId}/events`, never its ids), or `unmatched`. The HTTP layer supplies it.
 */
export type RouteNameOf = (method: string, path: string) => string;
