import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { ExecutorLease } from './executor-registry.ts';
import { createExecutorRegistry } from './executor-registry.ts';

function createRegistry(caps: { maxPerSubject?: number; maxExecutors?: number } = {}) {
  const clock = createFakeClock(1_000_000);
  const lost: ExecutorLease[] = [];
  const registry = createExecutorRegistry({
    clock,
    leaseMs: 45_000,
    maxPerSubject: caps.maxPerSubject ?? 20,
    maxExecutors: caps.maxExecutors ?? 100,
    onLost: (lease) => lost.push(lease),
  });
  return { clock, lost, registry };
}

describe('createExecutorRegistry', () => {
  it('keeps a lease for leaseMs after the last heartbeat, then reports it lost once', () => {
    const { clock, lost, registry } = createRegistry();
    expect(registry.connect('alice', 'exe_1', ['cart.add'])).toEqual({
      subjectId: 'alice',
      executorId: 'exe_1',
      tools: ['cart.add'],
      expiresAt: 1_045_000,
    });
    clock.advance(30_000);
    expect(registry.heartbeat('alice', 'exe_1')?.expiresAt).toBe(1_075_000);
    clock.advance(44_000);
    expect(registry.find('alice', 'exe_1')?.tools).toEqual(['cart.add']);
    expect(lost).toEqual([]);
    clock.advance(16_000);
    expect(lost.map((lease) => lease.executorId)).toEqual(['exe_1']);
    expect(registry.find('alice', 'exe_1')).toBeUndefined();
    expect(registry.heartbeat('alice', 'exe_1')).toBeNull();
    clock.advance(60_000);
    expect(lost).toHaveLength(1);
    registry.close();
  });

  it('keeps executors of two subjects apart even with the same id, and a disconnect is not a loss', () => {
    const { clock, lost, registry } = createRegistry();
    registry.connect('alice', 'exe_same', ['a']);
    registry.connect('bob', 'exe_same', ['b']);
    expect(registry.find('bob', 'exe_same')?.tools).toEqual(['b']);
    expect(registry.disconnect('alice', 'exe_same')).toBe(true);
    expect(registry.disconnect('alice', 'exe_same')).toBe(false);
    expect(registry.find('alice', 'exe_same')).toBeUndefined();
    expect(registry.find('bob', 'exe_same')?.tools).toEqual(['b']);
    clock.advance(10_000);
    expect(lost).toEqual([]);
    registry.close();
  });

  it('past the per-subject quota forgets that subject’s least recently refreshed lease', () => {
    const { registry } = createRegistry({ maxPerSubject: 2, maxExecutors: 3 });
    registry.connect('alice', 'exe_1', []);
    registry.connect('alice', 'exe_2', []);
    registry.heartbeat('alice', 'exe_1');
    registry.connect('alice', 'exe_3', []);
    expect(['exe_1', 'exe_2', 'exe_3'].map((id) => registry.find('alice', id) !== undefined)).toEqual([
      true,
      false,
      true,
    ]);
    registry.close();
  });

  it('never evicts another subject’s lease: 501 subjects filling every slot leave the victim’s executor alone', () => {
    const { registry, clock } = createRegistry({ maxPerSubject: 20, maxExecutors: 10_000 });
    expect(registry.connect('victim', 'exe_victim', ['a'])).not.toBeNull();
    const refused: string[] = [];
    for (let subject = 0; subject < 501; subject += 1) {
      for (let tab = 0; tab < 20; tab += 1) {
        if (registry.connect(`mallory_${subject}`, `exe_${tab}`, []) === null) refused.push(`${subject}/${tab}`);
      }
    }
    // 10,020 connects: with the victim's lease the registry is full after 9,999 of them.
    expect(refused).toHaveLength(21);
    expect(registry.size()).toBe(10_000);
    expect(registry.find('victim', 'exe_victim')).toBeDefined();
    // A full subject still rotates within its own quota, and refreshing a known lease always works.
    expect(registry.connect('mallory_0', 'exe_new', [])).not.toBeNull();
    expect(registry.find('mallory_0', 'exe_0')).toBeUndefined();
    expect(registry.connect('victim', 'exe_victim', ['b'])?.tools).toEqual(['b']);
    // Once leases expire, their slots go to whoever connects next.
    clock.advance(60_000);
    expect(registry.connect('newcomer', 'exe_1', [])).not.toBeNull();
    registry.close();
  });
});
