import { describe, expect, it } from 'vitest';
import { buildLongMarkdown, LONG_CUT_MARKER } from './scripted-markdown.ts';

describe('buildLongMarkdown (/long n)', () => {
  // The same blocks in the same order for every length, so a long build is the uncut text.
  const uncut = buildLongMarkdown(200_000);

  it.each([137, 600, 2000, 2001, 3000, 4999])('ends %i characters at a word boundary with a visible marker', (n) => {
    const answer = buildLongMarkdown(n);
    expect(answer.length).toBeLessThanOrEqual(n);
    expect(answer.length).toBeGreaterThan(n - 40);
    expect(answer.endsWith(LONG_CUT_MARKER)).toBe(true);
    const kept = answer.slice(0, -LONG_CUT_MARKER.length);
    expect(uncut.startsWith(kept)).toBe(true);
    // The kept text ends with a whole word: a non-space character followed by a space in the uncut text.
    expect(kept).toMatch(/\S$/);
    expect(uncut.charAt(kept.length)).toMatch(/\s/);
  });

  it('gives the same text for the same length', () => {
    expect(buildLongMarkdown(2500)).toBe(buildLongMarkdown(2500));
  });

  it('keeps only whole words, down to none but the marker', () => {
    expect(buildLongMarkdown(1)).toBe(LONG_CUT_MARKER);
    expect(buildLongMarkdown(3)).toBe(`##${LONG_CUT_MARKER}`);
  });
});
