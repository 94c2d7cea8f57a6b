/**
 * Holds back progress receipts that come faster than one per `intervalMs` per tool call
 * (docs/protocol.md §16): an in-memory rate guard, not state, so the run's log stays the truth.
 * Keeps at most `maxEntries` calls, forgetting the least recently reported first.
 */
export interface ProgressGate {
  /** True when the call's last let-through progress was under `intervalMs` ago; otherwise records `now` and says false. */
  isTooSoon(key: string, now: number): boolean;
  /** Forgets a call (its final receipt arrived). */
  forget(key: string): void;
}

/** Creates the gate. */
export function createProgressGate(options: { intervalMs: number; maxEntries: number }): ProgressGate {
  const lastAt = new Map<string, number>();
  return {
    isTooSoon(key, now) {
      const previous = lastAt.get(key);
      if (previous !== undefined && now - previous < options.intervalMs) return true;
      lastAt.delete(key);
      lastAt.set(key, now);
      for (const oldest of lastAt.keys()) {
        if (lastAt.size <= options.maxEntries) break;
        lastAt.delete(oldest);
      }
      return false;
    },
    forget: (key) => void lastAt.delete(key),
  };
}
