import type { BlockingConnection } from '../redis-tails.ts';
import type { StorageScript } from '../redis-script.ts';

/**
 * What `createRedisStorage` runs on: a client (standalone, or a cluster that routes each command
 * and script by its first key), and a way to open blocking connections.
 */
export interface RedisConnections {
  /** Runs one of `REDIS_STORAGE_SCRIPTS` with its keys and its JSON values (`EVALSHA`, `EVAL` once unknown). */
  runScript(script: StorageScript, keys: string[], argv: string): Promise<unknown>;
  /** Sends one command to the node holding `key`. */
  send(key: string, args: string[]): Promise<unknown>;
  /** Opens a connection of its own to the node holding `key` (each waiting group of live tails holds one). */
  openConnection(key: string): Promise<BlockingConnection>;
  /** True for a failure that says nothing about whether Redis ran the command (not a reply of Redis: a dropped connection). */
  isConnectionError(error: unknown): boolean;
  /** True on Redis Cluster: each subject's keys then share its shard's hash tag (`redis-keys.ts`). */
  isCluster: boolean;
  /** Closes the client. */
  close: () => Promise<void>;
}
