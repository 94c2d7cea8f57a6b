/** A stored executor lease (docs/protocol.md §19.4): the browser tools it runs and until when it holds. */
export interface StoredExecutorLease {
  subjectId: string;
  executorId: string;
  tools: readonly string[];
  /** Epoch ms. */
  expiresAt: number;
}

/** The executor leases of a deployment, shared by its processes (`AgentStorage.executorLeases`). */
export interface ExecutorLeaseStore {
  /**
   * Keeps (or refreshes) `lease`. Past `maxPerSubject` the subject's own least recently refreshed
   * leases go; a new lease needs one of `maxExecutors` live slots unless the subject's quota pays
   * for it: null (nothing kept) when all are taken.
   */
  connect(
    lease: StoredExecutorLease,
    caps: { now: number; maxPerSubject: number; maxExecutors: number },
  ): Promise<StoredExecutorLease | null>;
  /** Moves a live lease's expiry to `expiresAt`; null when there is no live lease. */
  heartbeat(subjectId: string, executorId: string, now: number, expiresAt: number): Promise<StoredExecutorLease | null>;
  /** Ends the lease; false when there was none. */
  disconnect(subjectId: string, executorId: string): Promise<boolean>;
  /** The live lease, or null. */
  find(subjectId: string, executorId: string, now: number): Promise<StoredExecutorLease | null>;
  /** Removes up to `limit` leases expired by `now` and returns them: of racing processes exactly one gets each. */
  takeExpired(now: number, limit: number): Promise<StoredExecutorLease[]>;
  /** How many leases are kept (expired ones until taken). */
  count(): Promise<number>;
}

/** The browser-tool executors (docs/protocol.md §19.4) as a store may share them between processes. */
export interface ExecutorStorage {
  /**
   * The browser-tool executor leases, shared by every process (optional: without it each process
   * keeps the leases of the executors that connected to it, docs/protocol.md §19.4).
   */
  executorLeases?: ExecutorLeaseStore;
}
