import type { Clock } from '../../core/clock.ts';
import { unrefTimer } from '../unref-timer.ts';

/** One connected executor: the browser tools it runs and until when its lease holds. */
export interface ExecutorLease {
  subjectId: string;
  executorId: string;
  tools: readonly string[];
  /** Epoch ms; without a heartbeat by then the executor is gone. */
  expiresAt: number;
}

/**
 * The executors connected to a handler (docs/protocol.md §19.4): a lease lives `leaseMs` after
 * the executor's last connect or heartbeat, and ends at `disconnect`, at its expiry (then `onLost`
 * runs, in one process) or when the handler closes. {@link createExecutorRegistry} keeps them in
 * the handler's memory (a restart forgets every lease, so executors connect again: their
 * heartbeat answers `409 EXECUTOR_NOT_CONNECTED`); `createSharedExecutorRegistry` keeps them in
 * the storage, for every process.
 */
export interface ExecutorRegistry {
  /**
   * Registers (or refreshes) the executor with its tools. Past `maxPerSubject` the subject's own
   * least recently refreshed lease goes. When all `maxExecutors` are taken (after expired ones
   * are swept), a subject holding none takes the least recently refreshed lease of a subject
   * holding more than one (a subject's last executor is never taken for another's), and anyone
   * else is refused: null.
   */
  connect(subjectId: string, executorId: string, tools: readonly string[]): Promise<ExecutorLease | null>;
  /** Renews the lease; null when the executor is not connected. */
  heartbeat(subjectId: string, executorId: string): Promise<ExecutorLease | null>;
  /** Ends the lease; false when there was none. */
  disconnect(subjectId: string, executorId: string): Promise<boolean>;
  find(subjectId: string, executorId: string): Promise<ExecutorLease | undefined>;
  /** Ends every lease past its expiry, calling `onLost` for each. */
  sweep(): Promise<void>;
  size(): Promise<number>;
  close(): void;
}

/** Options of {@link createExecutorRegistry}. */
export interface ExecutorRegistryOptions {
  clock: Clock;
  leaseMs: number;
  /** Leases kept per subject (tabs, browsers: its quota) and in all. */
  maxPerSubject: number;
  maxExecutors: number;
  /** Called when a lease expired (not when it was disconnected or evicted). */
  onLost: (lease: ExecutorLease) => void;
}

/** Creates the in-memory registry; it sweeps expired leases every third of a lease. */
export function createExecutorRegistry(options: ExecutorRegistryOptions): ExecutorRegistry {
  const { clock, leaseMs } = options;
  // Insertion order is refresh order: a connect or heartbeat moves the lease to the end.
  const leases = new Map<string, ExecutorLease>();
  const countBySubject = new Map<string, number>();
  const keyOf = (subjectId: string, executorId: string): string => `${subjectId}\u0000${executorId}`;
  const countOf = (subjectId: string): number => countBySubject.get(subjectId) ?? 0;
  const forget = (key: string): boolean => {
    const lease = leases.get(key);
    if (lease === undefined) return false;
    leases.delete(key);
    const left = countOf(lease.subjectId) - 1;
    if (left === 0) countBySubject.delete(lease.subjectId);
    else countBySubject.set(lease.subjectId, left);
    return true;
  };
  const refresh = (lease: ExecutorLease): ExecutorLease => {
    const key = keyOf(lease.subjectId, lease.executorId);
    forget(key);
    const renewed = { ...lease, expiresAt: clock.now() + leaseMs };
    leases.set(key, renewed);
    countBySubject.set(lease.subjectId, countOf(lease.subjectId) + 1);
    return renewed;
  };
  const evictOwnOldest = (subjectId: string): void => {
    for (const [key, lease] of leases) {
      if (countOf(subjectId) <= options.maxPerSubject) return;
      if (lease.subjectId === subjectId) forget(key);
    }
  };
  /** Forgets the least recently refreshed lease of a subject holding more than one: a newcomer's slot. */
  const forgetOldestOfCrowded = (): boolean => {
    for (const [key, lease] of leases) {
      if (countOf(lease.subjectId) > 1) return forget(key);
    }
    return false;
  };
  const sweep = (): void => {
    const now = clock.now();
    for (const [key, lease] of leases) {
      if (lease.expiresAt > now) continue;
      forget(key);
      options.onLost(lease);
    }
  };
  let timer: unknown = null;
  const schedule = (): void => {
    timer = clock.setTimeout(
      () => {
        sweep();
        schedule();
      },
      Math.max(1_000, Math.round(leaseMs / 3)),
    );
    unrefTimer(timer);
  };
  schedule();

  return {
    async connect(subjectId, executorId, tools) {
      // A new lease that the subject's quota does not pay for (by evicting its own) needs a free slot.
      const needsSlot = (): boolean =>
        !leases.has(keyOf(subjectId, executorId)) &&
        leases.size >= options.maxExecutors &&
        countOf(subjectId) < options.maxPerSubject;
      if (needsSlot()) sweep();
      if (needsSlot() && !(countOf(subjectId) === 0 && forgetOldestOfCrowded())) return null;
      const lease = refresh({ subjectId, executorId, tools: [...tools], expiresAt: 0 });
      evictOwnOldest(subjectId);
      return lease;
    },
    async heartbeat(subjectId, executorId) {
      const lease = leases.get(keyOf(subjectId, executorId));
      return lease === undefined || lease.expiresAt <= clock.now() ? null : refresh(lease);
    },
    disconnect: async (subjectId, executorId) => forget(keyOf(subjectId, executorId)),
    async find(subjectId, executorId) {
      const lease = leases.get(keyOf(subjectId, executorId));
      return lease !== undefined && lease.expiresAt > clock.now() ? lease : undefined;
    },
    sweep: async () => sweep(),
    size: async () => leases.size,
    close() {
      clock.clearTimeout(timer);
    },
  };
}
