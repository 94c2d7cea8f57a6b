import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  defaultDatabasePath,
  describePostgresUrl,
  describeRedisUrl,
  openStorageFromEnv,
  parseClusterNodes,
} from './open-storage-from-env.ts';
import { dropPostgresSchema } from './postgres/test-support/drop-postgres-schema.ts';

describe('openStorageFromEnv', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-env-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps data in the default SQLite file, creating its folder, and files in a private folder beside it', async () => {
    const path = defaultDatabasePath(folder);
    expect(path).toBe(join(folder, '.data', 'agent-chat.sqlite'));
    const opened = await openStorageFromEnv({}, path);
    expect(opened).toEqual({ storage: opened.storage, location: path, attachments: opened.attachments });
    expect((await stat(join(folder, '.data', 'attachments'))).mode & 0o777).toBe(0o700);
    await opened.storage.getOrCreateSetting('probe', 'kept');
    await opened.storage.close();
    expect((await stat(path)).isFile()).toBe(true);
    const again = await openStorageFromEnv({ AGENT_CHAT_DB: '  ' }, path);
    expect(await again.storage.getOrCreateSetting('probe', 'other')).toBe('kept');
    await again.storage.close();
  });

  it('takes AGENT_CHAT_DB as a path, and :memory: as keeping nothing', async () => {
    const path = join(folder, 'custom.sqlite');
    const custom = await openStorageFromEnv({ AGENT_CHAT_DB: path }, defaultDatabasePath(folder));
    expect(custom.location).toBe(path);
    await custom.storage.close();
    expect((await stat(path)).isFile()).toBe(true);
    const memory = await openStorageFromEnv({ AGENT_CHAT_DB: ':memory:' }, defaultDatabasePath(folder));
    expect(memory.location).toBe(':memory:');
    await memory.storage.getOrCreateSetting('probe', 'gone');
    await memory.storage.close();
    const fresh = await openStorageFromEnv({ AGENT_CHAT_DB: ':memory:' }, defaultDatabasePath(folder));
    expect(await fresh.storage.getOrCreateSetting('probe', 'new')).toBe('new');
  });

  it('reads the identity secret and the lease TTL, refusing malformed values by name', async () => {
    const env = { AGENT_CHAT_DB: ':memory:' };
    const secret = 'x'.repeat(32);
    expect(
      await openStorageFromEnv({ ...env, AGENT_CHAT_IDENTITY_SECRET: secret, AGENT_CHAT_LEASE_TTL_MS: '2500' }, ''),
    ).toEqual(expect.objectContaining({ identitySecret: secret, leaseTtlMs: 2500 }));
    await expect(openStorageFromEnv({ ...env, AGENT_CHAT_IDENTITY_SECRET: 'short' }, '')).rejects.toThrow(
      'AGENT_CHAT_IDENTITY_SECRET must be at least 32 characters (got 5).',
    );
    await expect(openStorageFromEnv({ ...env, AGENT_CHAT_LEASE_TTL_MS: '1.5' }, '')).rejects.toThrow(
      'AGENT_CHAT_LEASE_TTL_MS must be an integer number of milliseconds ≥ 100 (got "1.5").',
    );
  });

  it('selects Redis for everything when REDIS_URL is set, naming it without its password', async () => {
    const url = `${inject('redisUrl')}/3`;
    const opened = await openStorageFromEnv({ REDIS_URL: url, AGENT_CHAT_DB: ':memory:' }, '');
    expect(opened.location).toBe(url);
    // Files need a store every process shares; without AGENT_CHAT_ATTACHMENTS_DIR attachments are off.
    expect(opened.attachments).toBeUndefined();
    await opened.storage.getOrCreateSetting('probe', 'kept in redis');
    await opened.storage.close();
    const again = await openStorageFromEnv({ REDIS_URL: url }, '');
    expect(await again.storage.getOrCreateSetting('probe', 'other')).toBe('kept in redis');
    await again.storage.close();
    expect(describeRedisUrl('rediss://agent:s3cret@cache.internal:6380/2')).toBe('rediss://cache.internal:6380/2');
    await expect(openStorageFromEnv({ REDIS_URL: 'http://127.0.0.1:6379' }, '')).rejects.toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379/0.',
    );
    await expect(openStorageFromEnv({ REDIS_URL: 'redis://127.0.0.1:1' }, '')).rejects.toThrow('ECONNREFUSED');
  });

  it('joins a Redis Cluster when REDIS_CLUSTER_NODES is set, and refuses it beside REDIS_URL', async () => {
    const nodes = inject('redisClusterNodes');
    const listed = nodes.map((node) => new URL(node).host).join(', ');
    const opened = await openStorageFromEnv({ REDIS_CLUSTER_NODES: listed }, '');
    expect(opened.location).toBe(`redis-cluster://${listed.replaceAll(' ', '')}`);
    await opened.storage.getOrCreateSetting('cluster-probe', 'kept in the cluster');
    await opened.storage.close();
    const again = await openStorageFromEnv({ REDIS_CLUSTER_NODES: nodes[2] ?? '' }, '');
    expect(await again.storage.getOrCreateSetting('cluster-probe', 'other')).toBe('kept in the cluster');
    await again.storage.close();
    expect(parseClusterNodes(' a:1 ,, rediss://u:p@b:2 ')).toEqual(['redis://a:1', 'rediss://u:p@b:2']);
    expect(() => parseClusterNodes('cache.internal')).toThrow(
      'REDIS_CLUSTER_NODES must be host:port entries separated by commas (got "cache.internal").',
    );
    await expect(
      openStorageFromEnv({ REDIS_CLUSTER_NODES: listed, REDIS_URL: inject('redisUrl') }, ''),
    ).rejects.toThrow('Set REDIS_URL or REDIS_CLUSTER_NODES, not both.');
  });

  it('selects Postgres for everything when DATABASE_URL is set, naming it without its password', async () => {
    const schema = `from_env_${process.pid}`;
    const url = inject('postgresUrl');
    const env = { DATABASE_URL: url, AGENT_CHAT_PG_SCHEMA: schema, AGENT_CHAT_DB: ':memory:' };
    const opened = await openStorageFromEnv(env, '');
    expect(opened.location).toBe(url.replace('postgres@', ''));
    expect(opened.attachments).toBeUndefined();
    await opened.storage.getOrCreateSetting('probe', 'kept in postgres');
    await opened.storage.close();
    const again = await openStorageFromEnv(env, '');
    expect(await again.storage.getOrCreateSetting('probe', 'other')).toBe('kept in postgres');
    await again.storage.close();
    await dropPostgresSchema({ connectionString: url, schema });
    expect(describePostgresUrl('postgresql://app:s3cret@db.internal:5432/app')).toBe(
      'postgresql://db.internal:5432/app',
    );
    await expect(openStorageFromEnv({ DATABASE_URL: 'mysql://127.0.0.1/app' }, '')).rejects.toThrow(
      'DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://app@127.0.0.1:5432/app.',
    );
    await expect(openStorageFromEnv({ DATABASE_URL: url, REDIS_URL: inject('redisUrl') }, '')).rejects.toThrow(
      'Set DATABASE_URL or REDIS_URL/REDIS_CLUSTER_NODES, not both.',
    );
  });
});
