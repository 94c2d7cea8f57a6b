import type { RunLeaseStorage } from '../storage-port.ts';
import type { MemoryState } from './memory-state.ts';

/** The run leases role of the in-memory store. */
export function createMemoryRunLeaseStorage(state: MemoryState): RunLeaseStorage {
  const { leases, runs } = state;
  return {
    async renewLease(runId, owner, expiresAt) {
      const lease = leases.get(runId);
      if (lease?.owner !== owner) return false;
      leases.set(runId, { runId, owner, expiresAt });
      return true;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      const lease = leases.get(runId);
      if (lease === undefined || lease.expiresAt > now || runs.get(runId)?.run.endedAt !== null) return false;
      leases.set(runId, { runId, owner, expiresAt });
      return true;
    },
    async listExpiredLeases(now, limit) {
      return [...leases.values()]
        .filter((lease) => lease.expiresAt <= now)
        .sort((a, b) => a.expiresAt - b.expiresAt)
        .slice(0, limit)
        .map((lease) => ({ ...lease }));
    },
  };
}
