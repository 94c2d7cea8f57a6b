import type {
  createClient as CreateClient,
  createCluster as CreateCluster,
  defineScript as DefineScript,
  ErrorReply as ErrorReplyClass,
} from '@redis/client';
import { requireOptionalPeer } from '../optional-peer.ts';
import type { StorageScript } from './redis-script.ts';
import type { RedisConnections, RedisStorageOptions } from './redis-storage.ts';
import { createRedisStorage, REDIS_STORAGE_SCRIPTS } from './redis-storage.ts';
import type { BlockingConnection } from './redis-tails.ts';
import type { AgentStorage } from './storage-port.ts';

/** Options of {@link openRedisStorage}: `url` for one Redis, or `clusterNodes` for Redis Cluster. */
export type OpenRedisStorageOptions = Omit<RedisStorageOptions, 'connections'> &
  (
    | {
        /** `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS). */
        url: string;
        clusterNodes?: undefined;
      }
    | {
        /**
         * Some nodes of a Redis Cluster as `redis://host:port` URLs (credentials and TLS from the
         * first apply to every node); the client discovers the rest.
         */
        clusterNodes: readonly string[];
        url?: undefined;
      }
  );

interface RedisModule {
  ErrorReply: typeof ErrorReplyClass;
  createClient: typeof CreateClient;
  createCluster: typeof CreateCluster;
  defineScript: typeof DefineScript;
}

/** The client surface the storage uses, the same on one Redis and on a cluster. */
interface StorageClient {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  isOpen: boolean;
}

/**
 * Connects to Redis with node-redis (`@redis/client`) and returns the Redis {@link AgentStorage}:
 * one client speaking RESP2 (the replies the scripts are parsed as; node-redis pipelines what is
 * sent in one turn of the event loop) with the storage's scripts defined on it (`defineScript`),
 * plus one connection per waiting group of live tails. With `clusterNodes` the client is a cluster
 * client (`createCluster`) that routes every command and script by its first key. Rejects when
 * Redis cannot be reached. `@redis/client` is an optional peer dependency, loaded only here.
 */
export async function openRedisStorage(options: OpenRedisStorageOptions): Promise<AgentStorage> {
  const { url, clusterNodes, ...rest } = options;
  const onError = rest.onError ?? ((error: unknown) => console.error('[agent-chat] redis', error));
  const redis = loadRedisClient();
  const scripts = defineStorageScripts(redis.defineScript);
  // A first connection that fails rejects the open (npm start stops naming the cause); once
  // connected, a dropped connection is retried with a growing delay, up to 2 s.
  let hasConnected = false;
  const socket = {
    reconnectStrategy: (retries: number, cause: Error) => (hasConnected ? Math.min(50 * 2 ** retries, 2_000) : cause),
  };
  const common = { RESP: 2, disableClientInfo: true, maintNotifications: 'disabled', socket } as const;
  let client: StorageClient;
  let connections: Omit<RedisConnections, 'close' | 'isConnectionError'>;
  if (clusterNodes === undefined) {
    const standalone = redis.createClient({ ...common, url, scripts });
    client = standalone;
    connections = {
      isCluster: false,
      runScript: (script, keys, argv) => callScript(standalone, script, keys, argv),
      send: (_key, args) => standalone.sendCommand(args),
      openConnection: () => openBlocking(standalone.duplicate(), onError),
    };
  } else {
    if (clusterNodes.length === 0) throw new RangeError('clusterNodes needs at least one node.');
    const [first] = clusterNodes;
    const { isTls, ...auth } = clusterAuth(first ?? '');
    const cluster = redis.createCluster({
      rootNodes: clusterNodes.map((node) => ({ url: node })),
      defaults: { ...common, ...auth, socket: isTls ? { ...socket, tls: true } : socket },
      scripts,
      RESP: 2,
    });
    client = cluster;
    connections = {
      isCluster: true,
      runScript: (script, keys, argv) => callScript(cluster, script, keys, argv),
      send: (key, args) => cluster.sendCommand(key, false, args),
      openConnection: async (key) => openBlocking((await cluster.getNodeClientForKey(key)).duplicate(), onError),
    };
  }
  client.on('error', (error: unknown) => {
    if (hasConnected) onError(error);
  });
  await client.connect();
  hasConnected = true;
  return createRedisStorage({
    ...rest,
    onError,
    connections: {
      ...connections,
      isConnectionError: (error) => error instanceof Error && !(error instanceof redis.ErrorReply),
      async close() {
        if (client.isOpen) await client.close();
      },
    },
  });
}

type DefinedScripts = Record<string, ReturnType<typeof DefineScript>>;

/**
 * Every storage script as a node-redis script definition, by its method name: `EVALSHA` with the
 * keys it declares and its JSON values (node-redis sends `EVAL` once when Redis does not know it).
 */
function defineStorageScripts(defineScript: typeof DefineScript): DefinedScripts {
  const defined: DefinedScripts = {};
  for (const script of REDIS_STORAGE_SCRIPTS) {
    defined[script.name] = defineScript({
      SCRIPT: script.source,
      parseCommand(parser, keys: string[], argv: string) {
        parser.push(String(keys.length));
        for (const key of keys) parser.pushKey(key);
        parser.push(argv);
      },
      transformReply: (reply: unknown) => reply as never,
    });
  }
  return defined;
}

/** Calls the method node-redis defined for `script` on `client`. */
function callScript(client: object, script: StorageScript, keys: string[], argv: string): Promise<unknown> {
  const method = (client as Record<string, unknown>)[script.name];
  if (typeof method !== 'function') throw new TypeError(`Redis script ${script.name} is not defined on the client.`);
  return (method as (keys: string[], argv: string) => Promise<unknown>).call(client, keys, argv);
}

/** Connects a connection of its own for a group of live tails. */
async function openBlocking(
  duplicate: { on(event: 'error', listener: (error: unknown) => void): unknown; connect(): Promise<unknown> } & {
    sendCommand(args: string[]): Promise<unknown>;
    destroy(): void;
  },
  onError: (error: unknown) => void,
): Promise<BlockingConnection> {
  duplicate.on('error', onError);
  await duplicate.connect();
  return { send: (args) => duplicate.sendCommand(args), close: () => duplicate.destroy() };
}

/** The credentials and TLS of a node URL, for every node of the cluster. */
function clusterAuth(nodeUrl: string): { username?: string; password?: string; isTls: boolean } {
  const parsed = new URL(nodeUrl);
  return {
    isTls: parsed.protocol === 'rediss:',
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
  };
}

/** Loads `@redis/client` when a Redis storage is opened: a product on another storage never needs it. */
function loadRedisClient(): RedisModule {
  return requireOptionalPeer<RedisModule>('@redis/client', 'Redis storage');
}
