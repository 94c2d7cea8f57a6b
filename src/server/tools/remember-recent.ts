/**
 * Stores `value` under `key` as the most recently used entry of `entries` (a `Map` keeps insertion
 * order, so re-inserting moves it last) and forgets the least recently used past `maxEntries`.
 * Returns `value`. The demo tools' per-user state is bounded with it.
 */
export function rememberRecent<V>(entries: Map<string, V>, key: string, value: V, maxEntries: number): V {
  entries.delete(key);
  entries.set(key, value);
  for (const oldest of entries.keys()) {
    if (entries.size <= maxEntries) break;
    entries.delete(oldest);
  }
  return value;
}
