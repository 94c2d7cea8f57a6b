/**
 * Whether `error` says the storage cannot write because it has no room: SQLite's `SQLITE_FULL`
 * (a full disk, or a file past `openSqliteStorage({maxBytes})`) or a file system's `ENOSPC`, on
 * the error itself or on one of its causes. The handler answers it `503 STORAGE_FULL` with
 * `Retry-After` (docs/protocol.md §14.3) instead of `500 INTERNAL`.
 */
export function isStorageFull(error: unknown): boolean {
  let current: unknown = error;
  // A few links only: a cycle of causes must not hang the answer.
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true;
    current = cause;
  }
  return false;
}

/** How long a client is told to wait before writing again to a full storage. */
export const STORAGE_FULL_RETRY_AFTER_MS = 30_000;
