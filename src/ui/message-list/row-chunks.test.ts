import { describe, expect, it } from 'vitest';
import { RowChunks } from './row-chunks.ts';

const rows = (...keys: string[]): { key: string }[] => keys.map((key) => ({ key }));
const keysOf = (chunks: { key: string }[][]): string[][] => chunks.map((chunk) => chunk.map((row) => row.key));

describe('RowChunks', () => {
  it('puts rows before all those seen into a chunk of their own, and later rows into the newest chunk', () => {
    const chunks = new RowChunks();
    expect(keysOf(chunks.split(rows('m5', 'm6')))).toEqual([['m5', 'm6']]);
    expect(keysOf(chunks.split(rows('m5', 'm6', 'm7')))).toEqual([['m5', 'm6', 'm7']]);
    expect(keysOf(chunks.split(rows('m3', 'm4', 'm5', 'm6', 'm7')))).toEqual([
      ['m3', 'm4'],
      ['m5', 'm6', 'm7'],
    ]);
    expect(keysOf(chunks.split(rows('m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'tool:t1')))).toEqual([
      ['m1', 'm2'],
      ['m3', 'm4'],
      ['m5', 'm6', 'm7', 'tool:t1'],
    ]);
  });

  it('starts over with one chunk when a chunk’s first row is gone (another conversation, an echoed send)', () => {
    const chunks = new RowChunks();
    chunks.split(rows('m5'));
    chunks.split(rows('m3', 'm5'));
    expect(keysOf(chunks.split(rows('x1', 'x2')))).toEqual([['x1', 'x2']]);
    expect(keysOf(chunks.split(rows('m3', 'x2')))).toEqual([['m3', 'x2']]);
    expect(keysOf(chunks.split([]))).toEqual([[]]);
    expect(keysOf(chunks.split(rows('y1')))).toEqual([['y1']]);
  });
});
