import { afterEach, describe, expect, inject, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { openRedisStorage } from '../storage/open-redis-storage.ts';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.ts';
import { dropPostgresSchema } from '../storage/postgres/test-support/drop-postgres-schema.ts';
import type { AgentStorage, ExecutorLeaseStore } from '../storage/storage-port.ts';
import type { ExecutorLease, ExecutorRegistry, ExecutorRegistryOptions } from './executor-registry.ts';
import { createExecutorRegistry } from './executor-registry.ts';
import { createSharedExecutorRegistry } from './shared-executor-registry.ts';

const opened: AgentStorage[] = [];
const schemas: string[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  for (const schema of schemas.splice(0)) await dropPostgresSchema({ connectionString: inject('postgresUrl'), schema });
});

let redisPrefix = 0;
/** The leases of a fresh key prefix on the test's private redis-server. */
async function redisLeases(): Promise<ExecutorLeaseStore> {
  const storage = await openRedisStorage({
    url: inject('redisUrl'),
    keyPrefix: `executors-${process.pid}-${(redisPrefix += 1)}:`,
  });
  opened.push(storage);
  if (storage.executorLeases === undefined) throw new Error('The Redis storage shares no executor leases.');
  return storage.executorLeases;
}

let postgresSchema = 0;
/** The leases of a fresh schema on the test's private Postgres. */
async function postgresLeases(): Promise<ExecutorLeaseStore> {
  const schema = `executors_${process.pid}_${(postgresSchema += 1)}`;
  schemas.push(schema);
  const storage = await createPostgresStorage({ connectionString: inject('postgresUrl'), schema });
  opened.push(storage);
  if (storage.executorLeases === undefined) throw new Error('The Postgres storage shares no executor leases.');
  return storage.executorLeases;
}

type CreateRegistry = (options: ExecutorRegistryOptions) => Promise<ExecutorRegistry>;
const REGISTRIES: [string, CreateRegistry][] = [
  ['in memory', async (options) => createExecutorRegistry(options)],
  [
    'shared on Redis',
    async (options) => createSharedExecutorRegistry({ ...options, leases: await redisLeases(), onError: () => {} }),
  ],
  [
    'shared on Postgres',
    async (options) => createSharedExecutorRegistry({ ...options, leases: await postgresLeases(), onError: () => {} }),
  ],
];

describe.each(REGISTRIES)('executor registry %s', (_name, create) => {
  async function createRegistry(caps: { maxPerSubject?: number; maxExecutors?: number } = {}) {
    const clock = createFakeClock(1_000_000);
    const lost: ExecutorLease[] = [];
    const registry = await create({
      clock,
      leaseMs: 45_000,
      maxPerSubject: caps.maxPerSubject ?? 20,
      maxExecutors: caps.maxExecutors ?? 100,
      onLost: (lease) => lost.push(lease),
    });
    return { clock, lost, registry };
  }

  it('keeps a lease for leaseMs after the last heartbeat, then reports it lost once', async () => {
    const { clock, lost, registry } = await createRegistry();
    expect(await registry.connect('alice', 'exe_1', ['cart.add'])).toEqual({
      subjectId: 'alice',
      executorId: 'exe_1',
      tools: ['cart.add'],
      expiresAt: 1_045_000,
    });
    clock.advance(30_000);
    expect((await registry.heartbeat('alice', 'exe_1'))?.expiresAt).toBe(1_075_000);
    clock.advance(44_000);
    expect((await registry.find('alice', 'exe_1'))?.tools).toEqual(['cart.add']);
    expect(lost).toEqual([]);
    clock.advance(16_000);
    // The sweep the timer started, and one more: the lease is lost once.
    await registry.sweep();
    expect(lost.map((lease) => lease.executorId)).toEqual(['exe_1']);
    expect(await registry.find('alice', 'exe_1')).toBeUndefined();
    expect(await registry.heartbeat('alice', 'exe_1')).toBeNull();
    clock.advance(60_000);
    await registry.sweep();
    expect(lost).toHaveLength(1);
    registry.close();
  });

  it('keeps executors of two subjects apart even with the same id, and a disconnect is not a loss', async () => {
    const { clock, lost, registry } = await createRegistry();
    await registry.connect('alice', 'exe_same', ['a']);
    await registry.connect('bob', 'exe_same', ['b']);
    expect((await registry.find('bob', 'exe_same'))?.tools).toEqual(['b']);
    expect(await registry.disconnect('alice', 'exe_same')).toBe(true);
    expect(await registry.disconnect('alice', 'exe_same')).toBe(false);
    expect(await registry.find('alice', 'exe_same')).toBeUndefined();
    expect((await registry.find('bob', 'exe_same'))?.tools).toEqual(['b']);
    clock.advance(10_000);
    expect(lost).toEqual([]);
    registry.close();
  });

  it('past the per-subject quota forgets that subject’s least recently refreshed lease', async () => {
    const { registry } = await createRegistry({ maxPerSubject: 2, maxExecutors: 3 });
    await registry.connect('alice', 'exe_1', []);
    await registry.connect('alice', 'exe_2', []);
    await registry.heartbeat('alice', 'exe_1');
    await registry.connect('alice', 'exe_3', []);
    const found = await Promise.all(['exe_1', 'exe_2', 'exe_3'].map((id) => registry.find('alice', id)));
    expect(found.map((lease) => lease !== undefined)).toEqual([true, false, true]);
    registry.close();
  });

  it('500 subjects filling every slot leave the victim’s executor alone and a newcomer room', async () => {
    const { registry, clock } = await createRegistry({ maxPerSubject: 20, maxExecutors: 10_000 });
    expect(await registry.connect('victim', 'exe_victim', ['a'])).not.toBeNull();
    const refused: string[] = [];
    for (let subject = 0; subject < 500; subject += 1) {
      for (let tab = 0; tab < 20; tab += 1) {
        if ((await registry.connect(`mallory_${subject}`, `exe_${tab}`, [])) === null)
          refused.push(`${subject}/${tab}`);
      }
    }
    // 10,001 connects: with the victim's lease the registry is full after 9,999 of them.
    expect(refused).toEqual(['499/19']);
    expect(await registry.size()).toBe(10_000);
    expect(await registry.find('victim', 'exe_victim')).toBeDefined();
    // A full subject still rotates within its own quota, and refreshing a known lease always works.
    expect(await registry.connect('mallory_1', 'exe_new', [])).not.toBeNull();
    expect(await registry.find('mallory_1', 'exe_0')).toBeUndefined();
    expect((await registry.connect('victim', 'exe_victim', ['b']))?.tools).toEqual(['b']);
    // A newcomer takes the oldest lease of a subject holding more than one; the victim keeps its one.
    expect(await registry.connect('newcomer', 'exe_1', [])).not.toBeNull();
    expect(await registry.find('mallory_0', 'exe_0')).toBeUndefined();
    expect(await registry.find('victim', 'exe_victim')).toBeDefined();
    expect(await registry.size()).toBe(10_000);
    // Holding one already, a second tab is refused, and so is a subject below its quota.
    expect(await registry.connect('newcomer', 'exe_2', [])).toBeNull();
    expect(await registry.connect('mallory_0', 'exe_new', [])).toBeNull();
    // Once leases expire, their slots go to whoever connects next.
    clock.advance(60_000);
    expect(await registry.connect('late', 'exe_1', [])).not.toBeNull();
    registry.close();
  });

  it('never takes a subject’s last executor for a newcomer', async () => {
    const { registry } = await createRegistry({ maxPerSubject: 20, maxExecutors: 3 });
    for (const subject of ['alice', 'bob', 'carol'])
      expect(await registry.connect(subject, 'exe_1', [])).not.toBeNull();
    expect(await registry.connect('dave', 'exe_1', [])).toBeNull();
    const kept = await Promise.all(['alice', 'bob', 'carol'].map((subject) => registry.find(subject, 'exe_1')));
    expect(kept.every((lease) => lease !== undefined)).toBe(true);
    registry.close();
  });
});
