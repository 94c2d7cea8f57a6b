import { describe, expect, it } from 'vitest';
import { diffLines } from './diff-lines.ts';

describe('diffLines', () => {
  it('keeps the common lines and marks each removed and added one, removals first at a change', () => {
    expect(diffLines('a\nb\nc\nd', 'a\nx\nc\nd\ne')).toEqual([
      { change: 'unchanged', text: 'a' },
      { change: 'removed', text: 'b' },
      { change: 'added', text: 'x' },
      { change: 'unchanged', text: 'c' },
      { change: 'unchanged', text: 'd' },
      { change: 'added', text: 'e' },
    ]);
  });

  it('gives only additions from an empty text, only removals to one, and nothing for two empty texts', () => {
    expect(diffLines('', 'one\ntwo')).toEqual([
      { change: 'added', text: 'one' },
      { change: 'added', text: 'two' },
    ]);
    expect(diffLines('one', '')).toEqual([{ change: 'removed', text: 'one' }]);
    expect(diffLines('', '')).toEqual([]);
  });

  it('does not search texts past 250,000 line pairs: all of before removed, then all of after added', () => {
    const before = Array.from({ length: 501 }, (_, index) => `line ${index}`).join('\n');
    const after = `${before}\nlast`;
    const lines = diffLines(before, after);
    expect(lines).toHaveLength(501 + 502);
    expect(lines.slice(499, 503)).toEqual([
      { change: 'removed', text: 'line 499' },
      { change: 'removed', text: 'line 500' },
      { change: 'added', text: 'line 0' },
      { change: 'added', text: 'line 1' },
    ]);
    // 499 × 500 pairs are still compared: the one new line is found.
    const shorter = before.split('\n').slice(0, 499).join('\n');
    expect(diffLines(shorter, `x\n${shorter}`).slice(0, 2)).toEqual([
      { change: 'added', text: 'x' },
      { change: 'unchanged', text: 'line 0' },
    ]);
  });
});
