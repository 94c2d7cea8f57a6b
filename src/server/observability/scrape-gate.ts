/** Options of {@link createScrapeGate}. */
export interface ScrapeGateOptions {
  /** Collects the exposition text (`registry.metrics()`). */
  collect: () => Promise<string>;
  /** How long a collection is served again, in milliseconds, counted from when it started (0: never). */
  cacheMs: number;
  /** Scrapes let through per second, with a burst of as many (at least 1; `Infinity`: no limit). */
  maxPerSecond: number;
  /** A monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
}

/** What one scrape gets: the text to answer, or how long to wait (whole seconds, for `Retry-After`). */
export type ScrapeOutcome = { text: Promise<string> } | { retryAfterSeconds: number };

/** One handler's `/metrics` collections: shared, reused for a moment, and rate-limited. */
export interface ScrapeGate {
  /** Admits one scrape (a token of the bucket) and hands it the collection to answer with. */
  scrape(): ScrapeOutcome;
}

/**
 * Keeps a scrape flood from costing the event loop more than a little: scrapes arriving while a
 * collection runs share it, a collection is served again for `cacheMs`, and past `maxPerSecond`
 * scrapes a second (a token bucket holding as many, at least one) a scrape is refused with the seconds until
 * the next one is let through. A failed collection is never reused.
 */
export function createScrapeGate(options: ScrapeGateOptions): ScrapeGate {
  const { collect, cacheMs, maxPerSecond } = options;
  const now = options.now ?? (() => performance.now());
  const burst = Math.max(1, maxPerSecond);
  let tokens = burst;
  let refilledAt = now();
  let running: Promise<string> | null = null;
  let last: { text: string; startedAt: number } | null = null;
  return {
    scrape() {
      const at = now();
      if (Number.isFinite(maxPerSecond)) {
        tokens = Math.min(burst, tokens + ((at - refilledAt) / 1000) * maxPerSecond);
        refilledAt = at;
        if (tokens < 1) return { retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / maxPerSecond)) };
        tokens -= 1;
      }
      if (last !== null && at - last.startedAt < cacheMs) return { text: Promise.resolve(last.text) };
      if (running === null) {
        const collection = Promise.resolve()
          .then(collect)
          .then((text) => {
            last = { text, startedAt: at };
            return text;
          });
        running = collection;
        const done = (): void => {
          if (running === collection) running = null;
        };
        collection.then(done, done);
      }
      return { text: running };
    },
  };
}
