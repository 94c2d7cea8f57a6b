import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDatabasePath, openStorageFromEnv } from './open-storage-from-env.ts';

describe('openStorageFromEnv', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-env-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps data in the default SQLite file, creating its folder', async () => {
    const path = defaultDatabasePath(folder);
    expect(path).toBe(join(folder, '.data', 'agent-chat.sqlite'));
    const opened = openStorageFromEnv({}, path);
    expect(opened).toEqual({ storage: opened.storage, location: path });
    await opened.storage.getOrCreateSetting('probe', 'kept');
    await opened.storage.close();
    expect((await stat(path)).isFile()).toBe(true);
    const again = openStorageFromEnv({ AGENT_CHAT_DB: '  ' }, path);
    expect(await again.storage.getOrCreateSetting('probe', 'other')).toBe('kept');
    await again.storage.close();
  });

  it('takes AGENT_CHAT_DB as a path, and :memory: as keeping nothing', async () => {
    const path = join(folder, 'custom.sqlite');
    const custom = openStorageFromEnv({ AGENT_CHAT_DB: path }, defaultDatabasePath(folder));
    expect(custom.location).toBe(path);
    await custom.storage.close();
    expect((await stat(path)).isFile()).toBe(true);
    const memory = openStorageFromEnv({ AGENT_CHAT_DB: ':memory:' }, defaultDatabasePath(folder));
    expect(memory.location).toBe(':memory:');
    await memory.storage.getOrCreateSetting('probe', 'gone');
    await memory.storage.close();
    const fresh = openStorageFromEnv({ AGENT_CHAT_DB: ':memory:' }, defaultDatabasePath(folder));
    expect(await fresh.storage.getOrCreateSetting('probe', 'new')).toBe('new');
  });

  it('reads the identity secret and the lease TTL, refusing malformed values by name', () => {
    const env = { AGENT_CHAT_DB: ':memory:' };
    const secret = 'x'.repeat(32);
    expect(
      openStorageFromEnv({ ...env, AGENT_CHAT_IDENTITY_SECRET: secret, AGENT_CHAT_LEASE_TTL_MS: '2500' }, ''),
    ).toEqual(expect.objectContaining({ identitySecret: secret, leaseTtlMs: 2500 }));
    expect(() => openStorageFromEnv({ ...env, AGENT_CHAT_IDENTITY_SECRET: 'short' }, '')).toThrow(
      'AGENT_CHAT_IDENTITY_SECRET must be at least 32 characters (got 5).',
    );
    expect(() => openStorageFromEnv({ ...env, AGENT_CHAT_LEASE_TTL_MS: '1.5' }, '')).toThrow(
      'AGENT_CHAT_LEASE_TTL_MS must be an integer number of milliseconds ≥ 100 (got "1.5").',
    );
  });
});
