import type { RedisLayout, ShardKeys } from './redis-keys.ts';
import type { RunScript, SendTo, StorageScript } from './redis-script.ts';
import { takeOldestOverShards } from './redis-shard-sweeps.ts';
import {
  CONNECT_EXECUTOR,
  DISCONNECT_EXECUTOR,
  FIND_EXECUTOR,
  HEARTBEAT_EXECUTOR,
  TAKE_EXPIRED_EXECUTORS,
} from './redis-executor-scripts.ts';
import { toStrings } from './redis-replies.ts';
import type { ExecutorLeaseStore, StoredExecutorLease } from './storage-port.ts';

/** The executor lease scripts, for the client's script definitions. */
export const REDIS_EXECUTOR_SCRIPTS: readonly StorageScript[] = [
  CONNECT_EXECUTOR,
  DISCONNECT_EXECUTOR,
  FIND_EXECUTOR,
  HEARTBEAT_EXECUTOR,
  TAKE_EXPIRED_EXECUTORS,
];

/**
 * The executor leases of the Redis storage (`AgentStorage.executorLeases`), over `run` and `send`,
 * in the shard of their subject (`layout`): the sweep and the count go over every shard, and a
 * connect on a cluster reads the other shards' live leases first for the `maxExecutors` cap.
 */
export function createRedisExecutorLeases(run: RunScript, send: SendTo, layout: RedisLayout): ExecutorLeaseStore {
  const fieldOf = (subjectId: string, executorId: string): string => JSON.stringify([subjectId, executorId]);
  const keysOf = (shard: ShardKeys, subjectId: string): Record<string, string> => ({
    executors: shard.of('executors'),
    expiry: shard.of('executor-expiry'),
    subjectExecutors: shard.of(`subject-executors:${subjectId}`),
  });
  const leaseOf = (json: unknown, expiresAt: number): StoredExecutorLease => {
    const { subjectId, executorId, tools } = JSON.parse(String(json)) as Omit<StoredExecutorLease, 'expiresAt'>;
    return { subjectId, executorId, tools, expiresAt };
  };
  const liveElsewhere = async (own: ShardKeys, now: number): Promise<number> => {
    const others = layout.shards.filter((shard) => shard !== own);
    const counts = await Promise.all(
      others.map((shard) =>
        send(shard.of('executor-expiry'), ['ZCOUNT', shard.of('executor-expiry'), `(${now}`, '+inf']),
      ),
    );
    return counts.reduce<number>((sum, count) => sum + Number(count), 0);
  };
  return {
    async connect(lease, caps) {
      const { subjectId, executorId, tools } = lease;
      const shard = layout.ofSubject(subjectId);
      const kept = await run(CONNECT_EXECUTOR, shard, keysOf(shard, subjectId), {
        field: fieldOf(subjectId, executorId),
        lease: JSON.stringify({ subjectId, executorId, tools }),
        subjectId,
        now: caps.now,
        expiresAt: lease.expiresAt,
        maxPerSubject: caps.maxPerSubject,
        maxExecutors: caps.maxExecutors,
        liveElsewhere: await liveElsewhere(shard, caps.now),
      });
      return kept === 1 ? { subjectId, executorId, tools: [...tools], expiresAt: lease.expiresAt } : null;
    },
    async heartbeat(subjectId, executorId, now, expiresAt) {
      const shard = layout.ofSubject(subjectId);
      const json = await run(HEARTBEAT_EXECUTOR, shard, keysOf(shard, subjectId), {
        field: fieldOf(subjectId, executorId),
        now,
        expiresAt,
      });
      return typeof json === 'string' ? leaseOf(json, expiresAt) : null;
    },
    async disconnect(subjectId, executorId) {
      const shard = layout.ofSubject(subjectId);
      const reply = await run(DISCONNECT_EXECUTOR, shard, keysOf(shard, subjectId), {
        field: fieldOf(subjectId, executorId),
        subjectId,
      });
      return reply === 1;
    },
    async find(subjectId, executorId, now) {
      const shard = layout.ofSubject(subjectId);
      const [json, expiresAt] = toStrings(
        await run(FIND_EXECUTOR, shard, keysOf(shard, subjectId), { field: fieldOf(subjectId, executorId) }),
      );
      return json === undefined || Number(expiresAt) <= now ? null : leaseOf(json, Number(expiresAt));
    },
    async takeExpired(now, limit) {
      const leases: StoredExecutorLease[] = [];
      await takeOldestOverShards({
        shards: layout.shards,
        limit,
        send,
        index: (shard) => shard.of('executor-expiry'),
        upTo: String(now),
        take: async (shard, count) => {
          const flat = toStrings(
            await run(
              TAKE_EXPIRED_EXECUTORS,
              shard,
              { executors: shard.of('executors'), expiry: shard.of('executor-expiry') },
              { now, limit: count },
            ),
          );
          for (let index = 0; index + 1 < flat.length; index += 2)
            leases.push(leaseOf(flat[index], Number(flat[index + 1])));
          return flat.length / 2;
        },
      });
      return leases.sort((a, b) => a.expiresAt - b.expiresAt);
    },
    async count() {
      const counts = await Promise.all(
        layout.shards.map((shard) => send(shard.of('executor-expiry'), ['ZCARD', shard.of('executor-expiry')])),
      );
      return counts.reduce<number>((sum, count) => sum + Number(count), 0);
    },
  };
}
