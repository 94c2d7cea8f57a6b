import { describe, expect, it } from 'vitest';
import type { ScrapeGate, ScrapeGateOptions, ScrapeOutcome } from './scrape-gate.ts';
import { createScrapeGate } from './scrape-gate.ts';

/** A gate on a collection the test finishes by hand, on a clock the test moves. */
function gateOnHand(options: Partial<Omit<ScrapeGateOptions, 'collect' | 'now'>> = {}) {
  let time = 0;
  const pending: { resolve: (text: string) => void; reject: (error: Error) => void }[] = [];
  const gate: ScrapeGate = createScrapeGate({
    collect: () => new Promise<string>((resolve, reject) => pending.push({ resolve, reject })),
    cacheMs: 1_000,
    maxPerSecond: 10,
    now: () => time,
    ...options,
  });
  return {
    gate,
    pending,
    /** How many collections started so far. */
    collections: () => pending.length,
    advance: (ms: number) => (time += ms),
  };
}

const textOf = (outcome: ScrapeOutcome): Promise<string> => {
  if (!('text' in outcome)) throw new Error(`refused: retry after ${outcome.retryAfterSeconds} s`);
  return outcome.text;
};

/** Lets the gate's microtasks run (the collection starts one turn after the first scrape). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createScrapeGate', () => {
  it('gives scrapes that arrive during a collection that same collection: 8 at once cost 1', async () => {
    const { gate, pending, collections } = gateOnHand();
    const answers = Array.from({ length: 8 }, () => textOf(gate.scrape()));
    await settle();
    expect(collections()).toBe(1);
    pending[0]?.resolve('# one collection\n');
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 8 }, () => '# one collection\n'));
    expect(collections()).toBe(1);
  });

  it('serves a collection again for cacheMs from when it started, then collects anew', async () => {
    const { gate, pending, collections, advance } = gateOnHand({ cacheMs: 1_000 });
    const first = textOf(gate.scrape());
    await settle();
    advance(300);
    pending[0]?.resolve('first');
    expect(await first).toBe('first');
    advance(699);
    expect(await textOf(gate.scrape())).toBe('first');
    expect(collections()).toBe(1);
    advance(1);
    const second = textOf(gate.scrape());
    await settle();
    expect(collections()).toBe(2);
    pending[1]?.resolve('second');
    expect(await second).toBe('second');
  });

  it('with cacheMs 0 collects for every scrape that finds none running', async () => {
    const { gate, pending, collections } = gateOnHand({ cacheMs: 0 });
    const first = textOf(gate.scrape());
    await settle();
    pending[0]?.resolve('first');
    await first;
    const second = textOf(gate.scrape());
    await settle();
    expect(collections()).toBe(2);
    pending[1]?.resolve('second');
    expect(await second).toBe('second');
  });

  it('never reuses a failed collection', async () => {
    const { gate, pending, collections } = gateOnHand();
    const failed = textOf(gate.scrape());
    const alongside = textOf(gate.scrape());
    await settle();
    pending[0]?.reject(new Error('collector broke'));
    await expect(failed).rejects.toThrow('collector broke');
    await expect(alongside).rejects.toThrow('collector broke');
    const again = textOf(gate.scrape());
    await settle();
    expect(collections()).toBe(2);
    pending[1]?.resolve('recovered');
    expect(await again).toBe('recovered');
  });

  it('lets a burst of maxPerSecond through, refuses the flood past it with Retry-After, and refills at that rate', () => {
    const { gate, advance } = gateOnHand({ maxPerSecond: 10 });
    const burst = Array.from({ length: 25 }, () => gate.scrape());
    expect(burst.filter((outcome) => 'text' in outcome)).toHaveLength(10);
    expect(burst.slice(10)).toEqual(Array.from({ length: 15 }, () => ({ retryAfterSeconds: 1 })));
    advance(99);
    expect(gate.scrape()).toEqual({ retryAfterSeconds: 1 });
    advance(1);
    expect('text' in gate.scrape()).toBe(true);
    expect('text' in gate.scrape()).toBe(false);
    advance(10_000);
    expect(Array.from({ length: 11 }, () => 'text' in gate.scrape())).toEqual([
      ...Array.from({ length: 10 }, () => true),
      false,
    ]);
  });

  it('with maxPerSecond Infinity refuses none', () => {
    const { gate } = gateOnHand({ maxPerSecond: Infinity });
    expect(Array.from({ length: 1_000 }, () => gate.scrape()).every((outcome) => 'text' in outcome)).toBe(true);
  });

  it('below one a second still lets one through, then names the whole seconds to wait', () => {
    const { gate, advance } = gateOnHand({ maxPerSecond: 0.25 });
    expect('text' in gate.scrape()).toBe(true);
    expect(gate.scrape()).toEqual({ retryAfterSeconds: 4 });
    advance(2_000);
    expect(gate.scrape()).toEqual({ retryAfterSeconds: 2 });
  });
});
