import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { createNewcomerGate } from './newcomer-gate.ts';

/** Whether `promise` has settled, and how, without waiting for it. */
async function peek<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);
}

describe('createNewcomerGate', () => {
  it('lets a client asking once through after waitMs, and no sooner', async () => {
    const clock = createFakeClock();
    const gate = createNewcomerGate({ waitMs: 250, maxWaiting: 4, clock });
    const passing = gate.pass('a');
    clock.advance(249);
    expect(await peek(passing)).toBe('pending');
    clock.advance(1);
    expect(await passing).toBe(true);
  });

  it('turns away every request of a client asking again while it waits', async () => {
    const clock = createFakeClock();
    const gate = createNewcomerGate({ waitMs: 250, maxWaiting: 4, clock });
    const first = gate.pass('a');
    expect(await gate.pass('a')).toBe(false);
    const other = gate.pass('b');
    clock.advance(250);
    expect([await first, await other]).toEqual([false, true]);
    // Once its wait is over the client is new again.
    const later = gate.pass('a');
    clock.advance(250);
    expect(await later).toBe(true);
  });

  it('turns a client away at once while maxWaiting others wait', async () => {
    const clock = createFakeClock();
    const gate = createNewcomerGate({ waitMs: 250, maxWaiting: 2, clock });
    const waiting = [gate.pass('a'), gate.pass('b')];
    expect(await gate.pass('c')).toBe(false);
    clock.advance(250);
    expect(await Promise.all(waiting)).toEqual([true, true]);
  });
});
