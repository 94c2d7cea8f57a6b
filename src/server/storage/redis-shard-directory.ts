import type { RedisLayout, ShardKeys } from './redis-keys.ts';

/** Where a session or run lives, for the methods that are given only its id. */
export interface ShardDirectory {
  /**
   * The shard of a session or run. An id without a record of its shard (it was never created, or
   * it is gone) is looked for in shard 0, where it is not either, so the caller's own "not found"
   * answers.
   */
  find(id: string): Promise<ShardKeys>;
  /** Records that `ids` live in `shard`: awaited before the script that creates them (harmless if it then fails). */
  record(ids: readonly string[], shard: ShardKeys): Promise<void>;
  /** Deletes the records of ids whose sessions or runs were deleted (or whose create was refused). */
  forget(ids: readonly string[]): Promise<void>;
}

/** Ids whose shard one process keeps in memory at most (an id never moves, so a cached one never goes stale). */
const CACHED_IDS = 100_000;

/**
 * The shard directory of a deployment (docs/server.md, "Redis"). On one shard (a standalone Redis)
 * every id is in it and nothing is stored. On a cluster each created session and run has a
 * record of its shard number, `where:{<id>}` (a slot per id, so the lookups spread), written
 * before the creating script; the ids looked up are cached, the oldest dropped past
 * {@link CACHED_IDS}. `send` sends one command to the node holding `key`.
 */
export function createShardDirectory(
  layout: RedisLayout,
  send: (key: string, args: string[]) => Promise<unknown>,
): ShardDirectory {
  const [first] = layout.shards;
  if (first === undefined) throw new RangeError('A Redis layout has at least one shard.');
  if (layout.shards.length === 1) {
    return { find: () => Promise.resolve(first), record: () => Promise.resolve(), forget: () => Promise.resolve() };
  }
  const cache = new Map<string, ShardKeys>();
  const remember = (id: string, shard: ShardKeys): void => {
    if (cache.size >= CACHED_IDS) cache.delete(cache.keys().next().value as string);
    cache.set(id, shard);
  };
  return {
    async find(id) {
      const cached = cache.get(id);
      if (cached !== undefined) return cached;
      const stored = await send(layout.where(id), ['GET', layout.where(id)]);
      const shard = typeof stored === 'string' ? layout.shards[Number(stored)] : undefined;
      if (shard === undefined) return first;
      remember(id, shard);
      return shard;
    },
    async record(ids, shard) {
      const number = String(layout.shards.indexOf(shard));
      await Promise.all(ids.map((id) => send(layout.where(id), ['SET', layout.where(id), number])));
      for (const id of ids) remember(id, shard);
    },
    async forget(ids) {
      for (const id of ids) cache.delete(id);
      await Promise.all(ids.map((id) => send(layout.where(id), ['DEL', layout.where(id)])));
    },
  };
}
