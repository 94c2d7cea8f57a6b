import type { ScriptArgs, StorageScript } from './redis-script.ts';
import {
  CONNECT_EXECUTOR,
  DISCONNECT_EXECUTOR,
  FIND_EXECUTOR,
  HEARTBEAT_EXECUTOR,
  TAKE_EXPIRED_EXECUTORS,
} from './redis-executor-scripts.ts';
import { toStrings } from './redis-replies.ts';
import type { ExecutorLeaseStore, StoredExecutorLease } from './storage-port.ts';

/** Runs a storage script with its keys by name and its values (the Redis storage's `run`). */
export type RunScript = (script: StorageScript, keys: Record<string, string>, args: ScriptArgs) => Promise<unknown>;

/** The executor lease scripts, for the client's script definitions. */
export const REDIS_EXECUTOR_SCRIPTS: readonly StorageScript[] = [
  CONNECT_EXECUTOR,
  DISCONNECT_EXECUTOR,
  FIND_EXECUTOR,
  HEARTBEAT_EXECUTOR,
  TAKE_EXPIRED_EXECUTORS,
];

/**
 * The executor leases of the Redis storage (`AgentStorage.executorLeases`), over `run` and `send`
 * (a command of one key, its first argument) with the deployment's key names `of` (the same hash
 * tag as its records).
 */
export function createRedisExecutorLeases(
  run: RunScript,
  send: (args: string[]) => Promise<unknown>,
  of: (name: string) => string,
): ExecutorLeaseStore {
  const fieldOf = (subjectId: string, executorId: string): string => JSON.stringify([subjectId, executorId]);
  const keysOf = (subjectId: string): Record<string, string> => ({
    executors: of('executors'),
    expiry: of('executor-expiry'),
    subjectExecutors: of(`subject-executors:${subjectId}`),
  });
  const leaseOf = (json: unknown, expiresAt: number): StoredExecutorLease => {
    const { subjectId, executorId, tools } = JSON.parse(String(json)) as Omit<StoredExecutorLease, 'expiresAt'>;
    return { subjectId, executorId, tools, expiresAt };
  };
  return {
    async connect(lease, caps) {
      const { subjectId, executorId, tools } = lease;
      const kept = await run(CONNECT_EXECUTOR, keysOf(subjectId), {
        field: fieldOf(subjectId, executorId),
        lease: JSON.stringify({ subjectId, executorId, tools }),
        subjectId,
        now: caps.now,
        expiresAt: lease.expiresAt,
        maxPerSubject: caps.maxPerSubject,
        maxExecutors: caps.maxExecutors,
      });
      return kept === 1 ? { subjectId, executorId, tools: [...tools], expiresAt: lease.expiresAt } : null;
    },
    async heartbeat(subjectId, executorId, now, expiresAt) {
      const json = await run(HEARTBEAT_EXECUTOR, keysOf(subjectId), {
        field: fieldOf(subjectId, executorId),
        now,
        expiresAt,
      });
      return typeof json === 'string' ? leaseOf(json, expiresAt) : null;
    },
    async disconnect(subjectId, executorId) {
      const reply = await run(DISCONNECT_EXECUTOR, keysOf(subjectId), {
        field: fieldOf(subjectId, executorId),
        subjectId,
      });
      return reply === 1;
    },
    async find(subjectId, executorId, now) {
      const [json, expiresAt] = toStrings(
        await run(FIND_EXECUTOR, keysOf(subjectId), { field: fieldOf(subjectId, executorId) }),
      );
      return json === undefined || Number(expiresAt) <= now ? null : leaseOf(json, Number(expiresAt));
    },
    async takeExpired(now, limit) {
      const flat = toStrings(
        await run(
          TAKE_EXPIRED_EXECUTORS,
          { executors: of('executors'), expiry: of('executor-expiry') },
          { now, limit },
        ),
      );
      const leases: StoredExecutorLease[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2)
        leases.push(leaseOf(flat[index], Number(flat[index + 1])));
      return leases;
    },
    async count() {
      return Number(await send(['ZCARD', of('executor-expiry')]));
    },
  };
}
