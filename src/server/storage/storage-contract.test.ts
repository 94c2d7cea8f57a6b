import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStorage } from './memory-storage.ts';
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
