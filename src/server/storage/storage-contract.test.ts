import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createMemoryStorage } from './memory-storage.ts';
import { openRedisStorage } from './open-redis-storage.ts';
import { createPostgresStorage } from './postgres/postgres-storage.ts';
import { dropPostgresSchema } from './postgres/test-support/drop-postgres-schema.ts';
import { openSqliteStorage } from './sqlite-storage.ts';
import { describeStorageContract } from './test-support/storage-contract.ts';

describeStorageContract('memory', async () => ({ storage: createMemoryStorage() }), { isDurable: false });

describeStorageContract(
  'SQLite file',
  async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agent-chat-storage-'));
    const path = join(folder, 'nested', 'agent-chat.sqlite');
    let storage = openSqliteStorage({ path });
    return {
      storage,
      reopen: async () => {
        await storage.close();
        storage = openSqliteStorage({ path });
        return storage;
      },
      dispose: async () => {
        await storage.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  },
  { isDurable: true },
);

describeStorageContract('SQLite :memory:', async () => ({ storage: openSqliteStorage({ path: ':memory:' }) }), {
  isDurable: false,
});

let redisSuite = 0;
/** A fresh Redis storage per test under a key prefix of its own (the private servers are shared by every server test). */
async function openRedisFixture(connection: { url: string } | { clusterNodes: string[] }) {
  const options = { ...connection, keyPrefix: `contract-${process.pid}-${(redisSuite += 1)}:` };
  let storage = await openRedisStorage(options);
  return {
    storage,
    reopen: async () => {
      await storage.close();
      storage = await openRedisStorage(options);
      return storage;
    },
    dispose: () => storage.close(),
  };
}

describeStorageContract('Redis', () => openRedisFixture({ url: inject('redisUrl') }), { isDurable: true });
// Three masters: the suite's private cluster, shared like the standalone server.
describeStorageContract('Redis Cluster', () => openRedisFixture({ clusterNodes: inject('redisClusterNodes') }), {
  isDurable: true,
});

let postgresSuite = 0;
// A schema of its own per test on the suite's private Postgres, dropped after.
describeStorageContract(
  'Postgres',
  async () => {
    const options = {
      connectionString: inject('postgresUrl'),
      schema: `contract_${process.pid}_${(postgresSuite += 1)}`,
    };
    let storage = await createPostgresStorage(options);
    return {
      storage,
      reopen: async () => {
        await storage.close();
        storage = await createPostgresStorage(options);
        return storage;
      },
      dispose: async () => {
        await storage.close();
        await dropPostgresSchema(options);
      },
    };
  },
  { isDurable: true },
);
