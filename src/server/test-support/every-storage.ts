import { inject } from 'vitest';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import { openRedisStorage } from '../storage/open-redis-storage.ts';
import { openSqliteStorage } from '../storage/sqlite-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';

let redisPrefix = 0;

/**
 * Openers of a fresh store of each kind the server ships, for `describe.each`: memory, SQLite in
 * memory, and Redis (the test run's private server) under its own key prefix named after `name`.
 */
export function everyStorage(name: string): [string, () => Promise<AgentStorage>][] {
  return [
    ['memory', async () => createMemoryStorage()],
    ['SQLite', async () => openSqliteStorage({ path: ':memory:' })],
    [
      'Redis',
      () => openRedisStorage({ url: inject('redisUrl'), keyPrefix: `${name}-${process.pid}-${(redisPrefix += 1)}:` }),
    ],
  ];
}
