import { describe, expect, it } from 'vitest';
import { ANNOUNCE_MAX_CHARS, ANNOUNCE_SOURCE_CHARS, announceText } from './announce-text.ts';

describe('announceText', () => {
  it('says the rendered text of a short answer, whitespace collapsed', () => {
    expect(announceText('# Done\n\nThe **build**\npassed.')).toBe('Done The build passed.');
  });

  it('renders only the first characters of a long answer and marks the cut', () => {
    const words = 'word '.repeat(4_000);
    expect(announceText(words)).toBe(`${words.slice(0, ANNOUNCE_MAX_CHARS)}…`);
    // Nothing after the rendered part reaches the live region, however little text that part held.
    expect(announceText(`${'\u200B'.repeat(ANNOUNCE_SOURCE_CHARS)}late text`)).toBe('');
  });
});
