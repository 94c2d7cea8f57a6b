import type { Clock } from '../../core/clock.ts';
import type { BrowserToolLimits } from '../../core/protocol.ts';
import type { Subject } from '../runs/run-handle.ts';
import type { RunStore } from '../runs/run-store.ts';
import { createBrowserSchemaCache } from '../tools/browser-tool-schemas.ts';
import type { BrowserSchemaCache } from '../tools/browser-tool-schemas.ts';
import { releaseUnstartedClaims } from './browser-calls.ts';
import { createExecutorRegistry } from './executor-registry.ts';
import { createProgressGate } from './progress-gate.ts';
import type { ProgressGate } from './progress-gate.ts';
import type { ExecutorRegistry } from './executor-registry.ts';
import { createSharedExecutorRegistry } from './shared-executor-registry.ts';
import type { ExecutorLeaseStore } from '../storage/storage-port.ts';
import { createToolGrants } from './tool-grants.ts';
import type { ToolGrants, ToolGrantSecret } from './tool-grants.ts';

/** Progress receipts closer than this to the last one let through are acknowledged, not logged (docs/protocol.md §16). */
const PROGRESS_INTERVAL_MS = 1_000;

/** The product's check that `subject` may use the executor `executorId` (its browser, its tab). */
export type CanUseExecutor = (subject: Subject, executorId: string) => boolean | Promise<boolean>;

/** What the browser tool routes share: one per handler that has `canUseExecutor`. */
export interface BrowserToolRuntime {
  canUseExecutor: CanUseExecutor;
  executors: ExecutorRegistry;
  grants: ToolGrants;
  limits: BrowserToolLimits;
  /** Checks declared schemas at `POST /runs` (the engine compiles its own). */
  schemas: BrowserSchemaCache;
  /** Lets through at most one progress receipt a second per call. */
  progress: ProgressGate;
}

/** Options of {@link createBrowserToolRuntime}. */
export interface BrowserToolRuntimeOptions {
  canUseExecutor: CanUseExecutor;
  store: RunStore;
  clock: Clock;
  limits: BrowserToolLimits;
  caps: { maxPerSubject: number; maxExecutors: number };
  /** The key of claim grants: the product's, or one generated once and kept in the handler's storage. */
  grantSecret: ToolGrantSecret;
  /** The storage's shared executor leases (`AgentStorage.executorLeases`): then every process answers every executor. */
  leases?: ExecutorLeaseStore;
  onError: (error: unknown, context: Record<string, unknown>) => void;
}

/**
 * Creates the runtime: the executor leases (in the storage when it shares them, else in memory; an
 * executor that stops heartbeating has its unstarted claims released), the grants and a schema
 * cache for validating declarations.
 */
export function createBrowserToolRuntime(options: BrowserToolRuntimeOptions): BrowserToolRuntime {
  const registryOptions = {
    clock: options.clock,
    leaseMs: options.limits.executorLeaseSec * 1000,
    ...options.caps,
    onLost: (lease: { subjectId: string; executorId: string }) => {
      releaseUnstartedClaims(options.store, lease, 'executor_lost').catch((error: unknown) =>
        options.onError(error, { where: 'executor-release', executorId: lease.executorId }),
      );
    },
  };
  const { leases } = options;
  const executors =
    leases === undefined
      ? createExecutorRegistry(registryOptions)
      : createSharedExecutorRegistry({
          ...registryOptions,
          leases,
          onError: (error) => options.onError(error, { where: 'executor-sweep' }),
        });
  return {
    canUseExecutor: options.canUseExecutor,
    executors,
    grants: createToolGrants(options.grantSecret),
    limits: options.limits,
    schemas: createBrowserSchemaCache({ maxEntries: 256 }),
    progress: createProgressGate({ intervalMs: PROGRESS_INTERVAL_MS, maxEntries: 10_000 }),
  };
}
