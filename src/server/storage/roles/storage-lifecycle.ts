/** The store's own resources: whether it can serve writes now, and their release. */
export interface StorageLifecycle {
  /**
   * Resolves once the storage can serve writes right now (SQLite: a write commits; Redis: the
   * server answers), rejects otherwise (optional: without it `/readyz` asks for `counts()`).
   */
  checkReady?(): Promise<void>;
  /** Releases the storage's resources (a database handle); the data stays. */
  close(): Promise<void>;
}
