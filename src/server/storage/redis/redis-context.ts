import type { RedisLayout } from '../redis-keys.ts';
import type { RunScript, SendCommand } from '../redis-script.ts';
import type { ShardDirectory } from '../redis-shard-directory.ts';
import type { RedisTails } from '../redis-tails.ts';
import type { RedisConnections } from './redis-connections.ts';

/** What the roles of one Redis store share, built once by `createRedisStorage`. */
export interface RedisContext {
  connections: RedisConnections;
  /** The deployment's keys: its shards, and the keys that belong to none. */
  layout: RedisLayout;
  /** Runs a storage script in a shard. */
  run: RunScript;
  /** Sends a command of one key, which is its first argument (HGETALL, XRANGE, SCARD, ...). */
  send: SendCommand;
  /** Where a session or run given only by its id lives. */
  directory: ShardDirectory;
  /** The cross-process doorbells of live tails (`XREAD BLOCK`). */
  tails: RedisTails;
}
