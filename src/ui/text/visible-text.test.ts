import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters } from './hidden-characters.ts';
import { capText, formatJsonText, toVisibleSegments } from './visible-text.ts';

describe('toVisibleSegments', () => {
  it('spells out bidi overrides, zero-width, controls and tag characters', () => {
    expect(toVisibleSegments('a\u202Eb\u200Bc\u0007d\u{E0041}\n\te')).toEqual([
      { text: 'a', isEscape: false },
      { text: '⟪U+202E⟫', isEscape: true },
      { text: 'b', isEscape: false },
      { text: '⟪U+200B⟫', isEscape: true },
      { text: 'c', isEscape: false },
      { text: '⟪U+0007⟫', isEscape: true },
      { text: 'd', isEscape: false },
      { text: '⟪U+E0041⟫', isEscape: true },
      { text: '\n\te', isEscape: false },
    ]);
  });

  it('returns plain text untouched and reports hidden characters', () => {
    expect(toVisibleSegments('rm -rf /tmp')).toEqual([{ text: 'rm -rf /tmp', isEscape: false }]);
    expect(hasHiddenCharacters('rm -rf /tmp')).toBe(false);
    expect(hasHiddenCharacters('rm\u2066 -rf')).toBe(true);
  });
});

describe('formatJsonText', () => {
  it('pretty-prints values and JSON strings, keeps other strings', () => {
    expect(formatJsonText({ path: '/a', n: [1] })).toBe('{\n  "path": "/a",\n  "n": [\n    1\n  ]\n}');
    expect(formatJsonText('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatJsonText('plain <b>text</b>')).toBe('plain <b>text</b>');
    expect(formatJsonText(undefined)).toBe('');
  });
});

describe('capText', () => {
  it('caps long text and never splits a surrogate pair', () => {
    expect(capText('abcdef', 4)).toEqual({ text: 'abcd', isTruncated: true });
    expect(capText('ab😀cd', 3)).toEqual({ text: 'ab', isTruncated: true });
    expect(capText('abc', 3)).toEqual({ text: 'abc', isTruncated: false });
  });
});
