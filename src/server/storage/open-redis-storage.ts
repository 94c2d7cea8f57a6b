import { createRequire } from 'node:module';
import type { createClient as CreateClient } from '@redis/client';
import type { RedisConnections, RedisStorageOptions } from './redis-storage.ts';
import { createRedisStorage } from './redis-storage.ts';
import type { AgentStorage } from './storage-port.ts';

/** Options of {@link openRedisStorage}. */
export interface OpenRedisStorageOptions extends Omit<RedisStorageOptions, 'connections'> {
  /** `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS). */
  url: string;
}

type RedisClient = ReturnType<typeof CreateClient>;

/**
 * Connects to Redis with node-redis (`@redis/client`) and returns the Redis {@link AgentStorage}:
 * one command connection speaking RESP2 (the replies the scripts are parsed as; node-redis pipelines
 * what is sent in one turn of the event loop) plus one
 * per waiting group of live tails. Rejects when Redis cannot be reached. `@redis/client` is an
 * optional peer dependency, loaded only here.
 */
export async function openRedisStorage(options: OpenRedisStorageOptions): Promise<AgentStorage> {
  const { url, ...rest } = options;
  const onError = rest.onError ?? ((error: unknown) => console.error('[agent-chat] redis', error));
  const { createClient } = loadRedisClient();
  // A first connection that fails rejects the open (npm start stops naming the cause); once
  // connected, a dropped connection is retried with a growing delay, up to 2 s.
  let hasConnected = false;
  const client: RedisClient = createClient({
    url,
    RESP: 2,
    disableClientInfo: true,
    maintNotifications: 'disabled',
    socket: { reconnectStrategy: (retries, cause) => (hasConnected ? Math.min(50 * 2 ** retries, 2_000) : cause) },
  });
  client.on('error', (error: unknown) => {
    if (hasConnected) onError(error);
  });
  await client.connect();
  hasConnected = true;
  const connections: RedisConnections = {
    send: (args) => client.sendCommand(args),
    async openConnection() {
      const blocking = client.duplicate();
      blocking.on('error', onError);
      await blocking.connect();
      return { send: (args) => blocking.sendCommand(args), close: () => blocking.destroy() };
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
  return createRedisStorage({ ...rest, onError, connections });
}

/** Loads `@redis/client` when a Redis storage is opened: a product on another storage never needs it. */
function loadRedisClient(): { createClient: typeof CreateClient } {
  return createRequire(import.meta.url)('@redis/client') as { createClient: typeof CreateClient };
}
