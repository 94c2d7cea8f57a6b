import type { ExecutorLeaseStore } from '../storage/storage-port.ts';
import { unrefTimer } from '../unref-timer.ts';
import type { ExecutorRegistry, ExecutorRegistryOptions } from './executor-registry.ts';

/** Expired leases one sweep takes at most per call to the storage. */
const SWEEP_PAGE = 100;

/** Options of {@link createSharedExecutorRegistry}. */
export interface SharedExecutorRegistryOptions extends ExecutorRegistryOptions {
  /** Where the leases live (`AgentStorage.executorLeases`). */
  leases: ExecutorLeaseStore;
  /** Where a failed sweep is reported. */
  onError: (error: unknown) => void;
}

/**
 * Creates the registry of a deployment with several processes: every lease is kept in the shared
 * storage, so any process answers any executor request (connect, heartbeat, pending, claims), and
 * each process sweeps every third of a lease; a lease that expired is taken by exactly one of them,
 * which calls `onLost`.
 */
export function createSharedExecutorRegistry(options: SharedExecutorRegistryOptions): ExecutorRegistry {
  const { clock, leaseMs, leases } = options;
  const caps = (): { now: number; maxPerSubject: number; maxExecutors: number } => ({
    now: clock.now(),
    maxPerSubject: options.maxPerSubject,
    maxExecutors: options.maxExecutors,
  });
  const sweep = async (): Promise<void> => {
    for (;;) {
      const expired = await leases.takeExpired(clock.now(), SWEEP_PAGE);
      for (const lease of expired) options.onLost(lease);
      if (expired.length < SWEEP_PAGE) return;
    }
  };
  let timer: unknown = null;
  let isClosed = false;
  const schedule = (): void => {
    timer = clock.setTimeout(
      () => {
        void sweep()
          .catch(options.onError)
          .finally(() => {
            if (!isClosed) schedule();
          });
      },
      Math.max(1_000, Math.round(leaseMs / 3)),
    );
    unrefTimer(timer);
  };
  schedule();

  return {
    connect(subjectId, executorId, tools) {
      // Expired leases hold no slot there, so a refusal needs no sweep first.
      return leases.connect({ subjectId, executorId, tools: [...tools], expiresAt: clock.now() + leaseMs }, caps());
    },
    heartbeat: (subjectId, executorId) => leases.heartbeat(subjectId, executorId, clock.now(), clock.now() + leaseMs),
    disconnect: (subjectId, executorId) => leases.disconnect(subjectId, executorId),
    async find(subjectId, executorId) {
      return (await leases.find(subjectId, executorId, clock.now())) ?? undefined;
    },
    sweep,
    size: () => leases.count(),
    close() {
      isClosed = true;
      clock.clearTimeout(timer);
    },
  };
}
