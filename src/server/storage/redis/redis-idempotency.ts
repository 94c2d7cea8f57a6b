import type { ShardKeys } from '../redis-keys.ts';
import { toStrings } from '../redis-replies.ts';
import {
  ABANDON_IDEMPOTENCY,
  BEGIN_IDEMPOTENCY,
  COMPLETE_IDEMPOTENCY,
  DELETE_EXPIRED_IDEMPOTENCY,
} from '../redis-record-scripts.ts';
import type { IdempotencyCompletion, IdempotencyStorage } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/** The values a script that completes an idempotency record with its effect takes (empty without one). */
export function idempotencyArgs(completion: IdempotencyCompletion | undefined): Record<string, string> {
  return completion === undefined
    ? { idemId: '', idemToken: '', idemResponse: '', idemExpiresAt: '' }
    : {
        idemId: completion.recordId,
        idemToken: completion.token,
        idemResponse: JSON.stringify(completion.response),
        idemExpiresAt: String(completion.expiresAt),
      };
}

/** The keys of an idempotency record in its subject's shard, and the shard's expiry index. */
export function idemKeys(shard: ShardKeys, recordId: string | undefined): Record<string, string> {
  return {
    idem: shard.idem(recordId ?? ''),
    idemExpiry: shard.of('idem-expiry'),
  };
}

/** The idempotency role of the Redis store: a record lives in its subject's shard. */
export function createRedisIdempotencyStorage({ layout, run }: RedisContext): IdempotencyStorage {
  const { shards } = layout;
  /** Calls `call` for every shard (the calls sent together) and adds up their numeric replies. */
  const sumOverShards = async (call: (shard: ShardKeys) => Promise<unknown>): Promise<number> =>
    (await Promise.all(shards.map(call))).reduce<number>((sum, reply) => sum + Number(reply), 0);
  return {
    async beginIdempotency(request) {
      const shard = layout.ofSubject(request.subjectId);
      const [kind, response] = toStrings(
        await run(BEGIN_IDEMPOTENCY, shard, idemKeys(shard, request.recordId), {
          recordId: request.recordId,
          fingerprint: request.fingerprint,
          token: request.token,
          now: request.now,
          lockedUntil: request.lockedUntil,
          expiresAt: request.expiresAt,
        }),
      );
      if (kind === 'replay') return { kind, response: JSON.parse(response ?? 'null') };
      return { kind: kind === 'started' || kind === 'reused' ? kind : 'in_use' };
    },
    async completeIdempotency(completion) {
      const shard = layout.ofSubject(completion.subjectId);
      const reply = await run(COMPLETE_IDEMPOTENCY, shard, idemKeys(shard, completion.recordId), {
        recordId: completion.recordId,
        token: completion.token,
        response: JSON.stringify(completion.response),
        expiresAt: completion.expiresAt,
      });
      return reply === 1;
    },
    async abandonIdempotency(recordId, token, subjectId) {
      const shard = layout.ofSubject(subjectId);
      await run(ABANDON_IDEMPOTENCY, shard, idemKeys(shard, recordId), { recordId, token });
    },
    async deleteExpiredIdempotency(now) {
      return sumOverShards((shard) =>
        run(DELETE_EXPIRED_IDEMPOTENCY, shard, { idemExpiry: shard.of('idem-expiry') }, { now }),
      );
    },
  };
}
