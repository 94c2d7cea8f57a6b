/** One run lease: the process producing the run, until when. */
export interface RunLease {
  runId: string;
  owner: string;
  expiresAt: number;
}

/**
 * The run leases: which process produces each live run, until when. `createRun` gives the creator
 * its lease and the terminal append drops it; a lease that expired is taken over (a resume).
 */
export interface RunLeaseStorage {
  /** Extends the lease if `owner` holds it; false otherwise (another process took the run over). */
  renewLease(runId: string, owner: string, expiresAt: number): Promise<boolean>;
  /** Takes over the lease of a live run whose lease expired by `now`; exactly one caller wins. */
  takeExpiredLease(runId: string, owner: string, now: number, expiresAt: number): Promise<boolean>;
  /** Leases that expired by `now`, oldest first. */
  listExpiredLeases(now: number, limit: number): Promise<RunLease[]>;
}
