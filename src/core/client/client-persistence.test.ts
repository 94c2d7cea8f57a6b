import { describe, expect, it } from 'vitest';
import { createClientPersistence } from './client-persistence.ts';
import { createIdempotencyKey, createRandomUuid, IDEMPOTENCY_KEY_PATTERN } from './create-idempotency-key.ts';

function createMemoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

describe('createClientPersistence', () => {
  it('round-trips the pending create and the active run under the prefix, and clears them', () => {
    const storage = createMemoryStorage();
    const persistence = createClientPersistence(storage, 'x:');
    const pending = {
      key: 'k'.repeat(16),
      body: '{"a":1}',
      sessionId: null,
      createdAt: 5,
      clientMessageId: 'cm_1',
      text: 'Hi',
    };
    persistence.writePendingCreate(pending);
    persistence.writeActiveRun({ sessionId: 'ses_1', runId: 'run_1' });
    expect([...storage.items.keys()]).toEqual(['x:pending-create', 'x:active-run']);
    expect(persistence.readPendingCreate()).toStrictEqual(pending);
    expect(persistence.readActiveRun()).toEqual({ sessionId: 'ses_1', runId: 'run_1' });
    persistence.clearPendingCreate();
    persistence.clearActiveRun();
    expect(storage.items.size).toBe(0);
  });

  it('ignores unreadable records and a storage that throws', () => {
    const storage = createMemoryStorage();
    storage.items.set('agent-chat:pending-create', '{not json');
    storage.items.set('agent-chat:active-run', '{"sessionId":1}');
    const persistence = createClientPersistence(storage);
    expect(persistence.readPendingCreate()).toBe(null);
    expect(persistence.readActiveRun()).toBe(null);
    storage.items.set('agent-chat:pending-create', '{"key":"kkkkkkkkkkkkkkkk","body":"{}","createdAt":5}');
    storage.items.set('agent-chat:active-run', '5');
    expect(persistence.readPendingCreate()).toBe(null);
    expect(persistence.readActiveRun()).toBe(null);
    storage.items.set(
      'agent-chat:pending-create',
      '{"key":"kkkkkkkkkkkkkkkk","body":"{}","createdAt":5,"clientMessageId":"cm_1","text":"Hi","sessionId":7}',
    );
    expect(persistence.readPendingCreate()?.sessionId).toBe(null);
    const broken = createClientPersistence({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    });
    expect(() => broken.writeActiveRun({ sessionId: 's', runId: 'r' })).not.toThrow();
    expect(broken.readActiveRun()).toBe(null);
  });

  it('stores nothing without a storage adapter', () => {
    const persistence = createClientPersistence(undefined);
    persistence.writeActiveRun({ sessionId: 's', runId: 'r' });
    expect(persistence.readActiveRun()).toBe(null);
  });
});

describe('idempotency keys', () => {
  it('builds UUIDv4 strings that are valid keys', () => {
    const uuid = createRandomUuid(() => 0x5a);
    expect(uuid).toBe('baaaaaaa-baaa-4aaa-aaaa-baaaaaaaaaaa');
    expect(IDEMPOTENCY_KEY_PATTERN.test(uuid)).toBe(true);
    expect(createRandomUuid(() => 0xff)).toBe('efffffff-efff-4fff-bfff-efffffffffff');
    expect(createRandomUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('rejects an id source that cannot make a valid key', () => {
    expect(createIdempotencyKey(() => 'abcdefghijklmnop')).toBe('abcdefghijklmnop');
    expect(() => createIdempotencyKey(() => 'short')).toThrow(TypeError);
    expect(() => createIdempotencyKey(() => 'has spaces in it, sixteen+')).toThrow(TypeError);
  });
});
