import { describe, expect, it } from 'vitest';
import { createDeltaCoalescer } from './delta-coalescer.ts';
import { createFakeClock } from '../../../test/support/fake-clock.ts';

describe('createDeltaCoalescer', () => {
  it('sends the first delta at once, then at most every flushMs, with a timer for a pause', () => {
    const clock = createFakeClock(0);
    const sent: [number, string][] = [];
    const coalescer = createDeltaCoalescer({
      clock,
      flushMs: 40,
      flushBytes: 512,
      emit: (delta) => sent.push([clock.now(), delta]),
    });
    coalescer.push('a');
    clock.advance(10);
    coalescer.push('b');
    clock.advance(10);
    coalescer.push('c');
    clock.advance(100);
    coalescer.push('d');
    coalescer.push('');
    coalescer.flush();
    expect(sent).toEqual([
      [0, 'a'],
      [40, 'bc'],
      [120, 'd'],
    ]);
  });

  it('flushes as soon as flushBytes are buffered (counted in UTF-8 bytes)', () => {
    const clock = createFakeClock(0);
    const sent: string[] = [];
    const coalescer = createDeltaCoalescer({ clock, flushMs: 40, flushBytes: 4, emit: (delta) => sent.push(delta) });
    coalescer.push('x');
    coalescer.push('é');
    coalescer.push('é');
    coalescer.push('y');
    coalescer.flush();
    expect(sent).toEqual(['x', 'éé', 'y']);
  });
});
