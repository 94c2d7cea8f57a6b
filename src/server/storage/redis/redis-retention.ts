import type { ShardKeys } from '../redis-keys.ts';
import { toStrings } from '../redis-replies.ts';
import { ENFORCE_RETENTION } from '../redis-retention-script.ts';
import { checkRoomOverShards, countOverShards, enforceStoreCapsOverShards } from '../redis-shard-sweeps.ts';
import type { RetentionStorage } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/**
 * The retention and capacity role of the Redis store: one shard applies every cap in one script;
 * on several, the store caps go over all shards (`redis-shard-sweeps.ts`).
 */
export function createRedisRetentionStorage({ layout, run, directory }: RedisContext): RetentionStorage {
  const { shards } = layout;
  const isSharded = shards.length > 1;
  return {
    async enforceRetention(request) {
      const { touched } = request;
      // One shard applies every cap in its script. On several, a create's own caps run in its
      // subject's shard, then the store caps over all shards, then a sweep's idle TTL in each
      // shard: the order of one shard's script.
      const inShard = async (shard: ShardKeys) => {
        const reply = await run(
          ENFORCE_RETENTION,
          shard,
          {
            sessions: shard.of('sessions'),
            runs: shard.of('runs'),
            activity: shard.of('activity'),
          },
          {
            cutoff: request.now - request.sessionIdleTtlMs,
            protectedFrom: request.now - request.protectActiveSessionsMs,
            maxSessionsPerSubject: request.maxSessionsPerSubject,
            maxRunsPerSession: request.maxRunsPerSession,
            maxSessions: request.maxSessions,
            maxRuns: request.maxRuns,
            storeCaps: isSharded ? '0' : '1',
            touched: touched?.sessionId ?? '',
            touchedSubject: touched?.subjectId ?? '',
          },
        );
        const [sessionIds, runIds] = Array.isArray(reply) ? (reply as [unknown, unknown]) : [[], []];
        return { sessionIds: toStrings(sessionIds), runIds: toStrings(runIds) };
      };
      if (!isSharded) return inShard(shards[0] as ShardKeys);
      const parts = [];
      if (touched !== undefined) parts.push(await inShard(layout.ofSubject(touched.subjectId)));
      const { now, maxSessions, maxRuns, protectActiveSessionsMs } = request;
      parts.push(
        await enforceStoreCapsOverShards({ shards, run, now, maxSessions, maxRuns, protectActiveSessionsMs, touched }),
      );
      if (touched === undefined) parts.push(...(await Promise.all(shards.map(inShard))));
      const gone = {
        sessionIds: parts.flatMap((part) => part.sessionIds),
        runIds: parts.flatMap((part) => part.runIds),
      };
      await directory.forget([...gone.sessionIds, ...gone.runIds]);
      return gone;
    },
    checkSessionRoom: (request) => checkRoomOverShards({ ...request, shards, run }),
    counts: () => countOverShards(shards, run),
  };
}
