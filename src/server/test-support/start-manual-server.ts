import { afterEach } from 'vitest';
import type { AgentStorage } from '../storage/storage-port.ts';
import type { ManualEngine } from './manual-engine.ts';
import { createManualEngine } from './manual-engine.ts';
import type { TestServer, TestServerOptions } from './start-test-server.ts';
import { startTestServer } from './start-test-server.ts';

/** What {@link useManualServers}' `start` takes besides the store: any handler option but the engine and the store. */
export type ManualServerOptions = Omit<TestServerOptions, 'engine' | 'storage'>;

/**
 * For a test file's route tests on every store (`everyStorage`): returns `start`, which opens a
 * store, serves it with a manual engine (identities `idn_<user>` unless `options` says otherwise)
 * and hands both back. Call it at the file's top level: the server and the store of each test are
 * closed after it.
 */
export function useManualServers(): (
  openStorage: () => Promise<AgentStorage>,
  options?: ManualServerOptions,
) => Promise<{ server: TestServer; engine: ManualEngine }> {
  let open: { server?: TestServer; storage?: AgentStorage } = {};
  afterEach(async () => {
    const { server, storage } = open;
    open = {};
    await server?.close();
    await storage?.close();
  });
  return async (openStorage, options = {}) => {
    const engine = createManualEngine();
    const storage = await openStorage();
    open.storage = storage;
    const server = await startTestServer({
      engine,
      storage,
      identityFor: (subject) => `idn_${subject.id}`,
      ...options,
    });
    open.server = server;
    return { server, engine };
  };
}
