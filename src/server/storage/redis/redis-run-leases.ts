import { toStrings } from '../redis-replies.ts';
import { LIST_EXPIRED_LEASES, RENEW_LEASE, TAKE_EXPIRED_LEASE } from '../redis-record-scripts.ts';
import type { RunLeaseStorage } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/** The run leases role of the Redis store: a lease lives in its run's shard; expired ones are listed over all shards. */
export function createRedisRunLeaseStorage({ layout, run, directory }: RedisContext): RunLeaseStorage {
  const { shards } = layout;
  return {
    async renewLease(runId, owner, expiresAt) {
      const shard = await directory.find(runId);
      return (await run(RENEW_LEASE, shard, shard.leases(), { runId, owner, expiresAt })) === 1;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      const shard = await directory.find(runId);
      const reply = await run(
        TAKE_EXPIRED_LEASE,
        shard,
        { ...shard.leases(), run: shard.run(runId) },
        { runId, owner, now, expiresAt },
      );
      return reply === 1;
    },
    async listExpiredLeases(now, limit) {
      const leases = [];
      const replies = await Promise.all(
        shards.map(async (shard) => toStrings(await run(LIST_EXPIRED_LEASES, shard, shard.leases(), { now, limit }))),
      );
      for (const flat of replies) {
        for (let index = 0; index + 2 < flat.length; index += 3) {
          leases.push({
            runId: flat[index] as string,
            owner: flat[index + 1] as string,
            expiresAt: Number(flat[index + 2]),
          });
        }
      }
      return leases.sort((a, b) => a.expiresAt - b.expiresAt).slice(0, limit);
    },
  };
}
