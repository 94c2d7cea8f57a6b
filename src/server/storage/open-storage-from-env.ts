import { dirname, join } from 'node:path';
import type { AttachmentStore } from '../attachments/attachment-store.ts';
import { openDirectoryAttachmentStore } from '../attachments/directory-attachment-store.ts';
import { createMemoryAttachmentStore } from '../attachments/memory-attachment-store.ts';
import { createMemoryStorage } from './memory-storage.ts';
import { openRedisStorage } from './open-redis-storage.ts';
import { createPostgresStorage } from './postgres/postgres-storage.ts';
import { openSqliteStorage } from './sqlite-storage.ts';
import type { AgentStorage } from './storage-port.ts';

/** What a server entry reads from its environment for storage (docs/server.md, "Storage"). */
export interface StorageFromEnv {
  storage: AgentStorage;
  /**
   * Where the data lives, for the start-up line (`:memory:` when nothing is kept; a Redis or
   * Postgres URL without its password; `redis-cluster://<node>,…` for a cluster).
   */
  location: string;
  /**
   * Where uploaded files go: `AGENT_CHAT_ATTACHMENTS_DIR` when set, else the `attachments` folder
   * beside the SQLite file, or memory with `:memory:`; none (attachments off) on Redis or Postgres without it.
   */
  attachments?: AttachmentStore;
  /** `AGENT_CHAT_IDENTITY_SECRET`, when set; otherwise the handler keeps a generated one in storage. */
  identitySecret?: string;
  /** `AGENT_CHAT_LEASE_TTL_MS`, when set. */
  leaseTtlMs?: number;
}

/** The database file `npm start` uses when `AGENT_CHAT_DB` is unset, under the project folder. */
export function defaultDatabasePath(rootDir: string): string {
  return join(rootDir, '.data', 'agent-chat.sqlite');
}

/**
 * Opens the storage an entry's environment asks for: `REDIS_URL` (`redis://` or `rediss://`) selects
 * Redis for everything, for any number of server processes, and `REDIS_CLUSTER_NODES`
 * (`host:port,host:port,…`, or `redis://` URLs) a Redis Cluster, and `DATABASE_URL` (`postgres://` or
 * `postgresql://`) Postgres (schema `AGENT_CHAT_PG_SCHEMA`, default `agent_chat`, migrated on open);
 * otherwise `AGENT_CHAT_DB` is a SQLite
 * file path (default `defaultPath`) or `:memory:` (the in-memory store: nothing survives the
 * process). Also reads `AGENT_CHAT_IDENTITY_SECRET` (at least 32 characters) and
 * `AGENT_CHAT_LEASE_TTL_MS` (an integer ≥ 100), and opens the attachment store (see
 * {@link StorageFromEnv.attachments}). Rejects naming the variable when one is malformed or two
 * stores are asked for, and when Redis or Postgres cannot be reached.
 */
export async function openStorageFromEnv(
  env: Record<string, string | undefined>,
  defaultPath: string,
): Promise<StorageFromEnv> {
  const configured = env['AGENT_CHAT_DB']?.trim() ?? '';
  const path = configured === '' ? defaultPath : configured;
  const secret = env['AGENT_CHAT_IDENTITY_SECRET'];
  if (secret !== undefined && secret !== '' && secret.length < 32) {
    throw new Error(`AGENT_CHAT_IDENTITY_SECRET must be at least 32 characters (got ${secret.length}).`);
  }
  const leaseText = env['AGENT_CHAT_LEASE_TTL_MS']?.trim() ?? '';
  const leaseTtlMs = leaseText === '' ? undefined : Number(leaseText);
  if (leaseTtlMs !== undefined && (!Number.isInteger(leaseTtlMs) || leaseTtlMs < 100)) {
    throw new Error(`AGENT_CHAT_LEASE_TTL_MS must be an integer number of milliseconds ≥ 100 (got "${leaseText}").`);
  }
  const redisUrl = env['REDIS_URL']?.trim() ?? '';
  const clusterNodes = parseClusterNodes(env['REDIS_CLUSTER_NODES'] ?? '');
  if (redisUrl !== '' && clusterNodes.length > 0) throw new Error('Set REDIS_URL or REDIS_CLUSTER_NODES, not both.');
  const databaseUrl = env['DATABASE_URL']?.trim() ?? '';
  if (databaseUrl !== '' && (redisUrl !== '' || clusterNodes.length > 0)) {
    throw new Error('Set DATABASE_URL or REDIS_URL/REDIS_CLUSTER_NODES, not both.');
  }
  let storage: AgentStorage;
  let location = path;
  if (databaseUrl !== '') {
    location = describePostgresUrl(databaseUrl);
    const schema = env['AGENT_CHAT_PG_SCHEMA']?.trim() ?? '';
    storage = await createPostgresStorage({ connectionString: databaseUrl, ...(schema === '' ? {} : { schema }) });
  } else if (clusterNodes.length > 0) {
    location = `redis-cluster://${clusterNodes.map((node) => new URL(describeRedisUrl(node)).host).join(',')}`;
    storage = await openRedisStorage({ clusterNodes });
  } else if (redisUrl !== '') {
    location = describeRedisUrl(redisUrl);
    storage = await openRedisStorage({ url: redisUrl });
  } else storage = path === ':memory:' ? createMemoryStorage() : openSqliteStorage({ path });
  const attachmentsDir = env['AGENT_CHAT_ATTACHMENTS_DIR']?.trim() ?? '';
  const isShared = redisUrl !== '' || clusterNodes.length > 0 || databaseUrl !== '';
  let attachments: AttachmentStore | undefined;
  if (attachmentsDir !== '') attachments = openDirectoryAttachmentStore({ directory: attachmentsDir });
  else if (!isShared)
    attachments =
      path === ':memory:'
        ? createMemoryAttachmentStore()
        : openDirectoryAttachmentStore({ directory: join(dirname(path), 'attachments') });
  return {
    storage,
    location,
    ...(attachments === undefined ? {} : { attachments }),
    ...(secret === undefined || secret === '' ? {} : { identitySecret: secret }),
    ...(leaseTtlMs === undefined ? {} : { leaseTtlMs }),
  };
}

/** Returns the Redis URL without credentials; throws naming `REDIS_URL` when it is not a redis:// or rediss:// URL. */
export function describeRedisUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:')) {
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379/0.');
  }
  url.username = '';
  url.password = '';
  return url.toString();
}

/** Returns the Postgres URL without credentials; throws naming `DATABASE_URL` when it is not a postgres:// URL. */
export function describePostgresUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://app@127.0.0.1:5432/app.');
  }
  url.username = '';
  url.password = '';
  return url.toString();
}

/**
 * The nodes of `REDIS_CLUSTER_NODES` as `redis://` URLs: comma-separated `host:port` (or whole
 * `redis://`/`rediss://` URLs); throws naming the variable for an entry that is neither.
 */
export function parseClusterNodes(text: string): string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const url = entry.includes('://') ? entry : `redis://${entry}`;
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed === null || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.port === '') {
      throw new Error(`REDIS_CLUSTER_NODES must be host:port entries separated by commas (got "${entry}").`);
    }
    return url;
  });
}
