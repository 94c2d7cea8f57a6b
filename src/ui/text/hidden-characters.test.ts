import { describe, expect, test } from 'vitest';
import {
  HIDDEN_CHARACTER_CLASSES,
  KEPT_IN_PROSE,
  hasHiddenCharacters,
  markHiddenCharacters,
  removeHiddenCharacters,
  removeHiddenProseCharacters,
} from './hidden-characters.ts';

interface ClassSample {
  /** The class's name (the comment above it in the table). */
  name: string;
  /** Characters the class must cover, by kind. */
  members: Record<string, string[]>;
  /** Text with characters of the class, and what prose keeps of it. */
  input: string;
  prose: string;
}

/** One sample per class of the table, keyed by its pattern: a class without one fails its test. */
const SAMPLES: Record<string, ClassSample> = {
  '[^\\P{Cc}\\t\\n]': {
    name: 'C0 and C1 controls (but tab and line feed), DEL',
    members: {
      C0: ['\u0000', '\u0007', '\u000B', '\u000D', '\u001B', '\u001F'],
      DEL: ['\u007F'],
      C1: ['\u0085', '\u009F'],
    },
    input: 'a\u001B[31mb\u0000\u0085\u007F\t\n',
    prose: 'a[31mb\t\n',
  },
  '[\\u2028\\u2029]': {
    name: 'line and paragraph separators',
    members: { separators: ['\u2028', '\u2029'] },
    input: 'a\u2028b\u2029',
    prose: 'ab',
  },
  '\\p{DI}': {
    name: 'Default_Ignorable_Code_Point',
    members: {
      'bidi embeddings, overrides and isolates': ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2069'],
      'bidi marks': ['\u061C', '\u200E', '\u200F'],
      'zero-width space, word joiner, invisible operators, byte order mark': ['\u200B', '\u2060', '\u2064', '\uFEFF'],
      joiners: ['\u200C', '\u200D'],
      'soft hyphen, combining grapheme joiner, Mongolian vowel separator': ['\u00AD', '\u034F', '\u180E'],
      'Hangul fillers': ['\u115F', '\u1160', '\u3164', '\uFFA0'],
      'variation selectors': ['\uFE00', '\uFE0F', '\u{E0100}', '\u{E01EF}'],
      'tag characters': ['\u{E0000}', '\u{E0001}', '\u{E0041}', '\u{E007F}'],
    },
    input: 'a\u202Eb\u2066c\u200Fd\u200Be\u2060f\uFEFFg\u00ADh\u3164i\u{E0069}\u{E0067}\u{E007F}',
    prose: 'abcdefghi',
  },
};

describe('the hidden-character table', () => {
  test.each(
    HIDDEN_CHARACTER_CLASSES.map(
      (hiddenClass) => [SAMPLES[hiddenClass.pattern]?.name ?? hiddenClass.pattern, hiddenClass.pattern] as const,
    ),
  )('%s', (_name, pattern) => {
    const sample = SAMPLES[pattern];
    expect(sample, `a sample for ${pattern}`).toBeDefined();
    if (!sample) return;
    for (const [kind, members] of Object.entries(sample.members)) {
      for (const member of members) {
        const label = `${kind}: U+${member.codePointAt(0)?.toString(16)}`;
        expect(hasHiddenCharacters(`x${member}y`), label).toBe(true);
        expect(removeHiddenCharacters(`x${member}y`), label).toBe('xy');
        expect(markHiddenCharacters(member), label).toMatch(/^<span class="ac-invisible">⟪U\+[0-9A-F]{4,5}⟫<\/span>$/);
      }
    }
    expect(removeHiddenProseCharacters(sample.input)).toBe(sample.prose);
    expect(hasHiddenCharacters(removeHiddenCharacters(sample.input))).toBe(false);
  });

  test('leaves tab, line feed and ordinary text alone', () => {
    const text = 'plain\ttext\nwith émoji 😀, Ελληνικά, العربية and 中文';
    expect(hasHiddenCharacters(text)).toBe(false);
    expect(removeHiddenProseCharacters(text)).toBe(text);
  });

  test('marks each character by its code point, supplementary ones too', () => {
    expect(markHiddenCharacters('a\u200Bb\u{E0041}')).toBe(
      'a<span class="ac-invisible">⟪U+200B⟫</span>b<span class="ac-invisible">⟪U+E0041⟫</span>',
    );
  });
});

describe('what prose keeps', () => {
  test('there is one rule for joiners and one for variation selectors', () => {
    expect(KEPT_IN_PROSE.length).toBe(2);
  });

  test('a joiner between emoji or after an Indic virama or Arabic-script letter, never between Latin letters or doubled', () => {
    // Kept: a ZWJ emoji sequence, Persian "می‌خواهم", Hindi "क्‍ष", "❤️‍🔥"; removed: between Latin letters, doubled, alone.
    const kept =
      '\u{1F469}\u200D\u{1F4BB} \u0645\u06CC\u200C\u062E \u0915\u094D\u200D\u0937 \u2764\uFE0F\u200D\u{1F525}';
    expect(removeHiddenProseCharacters(kept)).toBe(kept);
    expect(removeHiddenProseCharacters('a\u200Db \u0645\u200C\u200C\u062E \u200D')).toBe('ab \u0645\u062E ');
  });

  test('a variation selector right after a visible character, never as a run or after a space', () => {
    const kept = '\u2764\uFE0F \u845B\u{E0100} \u1820\u180B';
    expect(removeHiddenProseCharacters(kept)).toBe(kept);
    expect(removeHiddenProseCharacters('a\uFE0F\u{E0101}\u{E0102} \uFE0E')).toBe('a\uFE0F ');
  });
});
