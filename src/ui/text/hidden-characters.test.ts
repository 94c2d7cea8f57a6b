import { describe, expect, test } from 'vitest';
import {
  HIDDEN_CHARACTER_CLASSES,
  hasHiddenCharacters,
  markHiddenCharacters,
  removeHiddenCharacters,
  removeHiddenProseCharacters,
} from './hidden-characters.ts';

interface ClassSample {
  /** The class's name (the comment above it in the table). */
  name: string;
  /** Text holding characters of the class, and every character of it that the table must cover. */
  input: string;
  members: string[];
  /** What prose keeps of `input`. */
  prose: string;
}

/** One sample per class of the table, keyed by its `characters`: a class without one fails its test. */
const SAMPLES: Record<string, ClassSample> = {
  '\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F': {
    name: 'C0 and C1 controls (but tab and line feed) and DEL',
    input: 'a\u001B[31mb\u0000\u0085\u007F\t\n',
    members: ['\u0000', '\u0008', '\u000B', '\u000D', '\u001F', '\u007F', '\u0080', '\u009F'],
    prose: 'a[31mb\t\n',
  },
  '\\u202A-\\u202E\\u2066-\\u2069': {
    name: 'bidi embeddings, overrides and isolates',
    input: 'a\u202Eb\u2066c',
    members: ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'],
    prose: 'abc',
  },
  '\\u061C\\u200E\\u200F': {
    name: 'bidi marks',
    input: 'a\u200Fb\u061C',
    members: ['\u061C', '\u200E', '\u200F'],
    prose: 'ab',
  },
  '\\u200B\\u2060-\\u2064\\uFEFF': {
    name: 'zero-width space, word joiner, invisible operators and byte order mark',
    input: 'a\u200Bb\u2060c\uFEFF',
    members: ['\u200B', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\uFEFF'],
    prose: 'abc',
  },
  '\\u2028\\u2029': {
    name: 'line and paragraph separators',
    input: 'a\u2028b\u2029',
    members: ['\u2028', '\u2029'],
    prose: 'ab',
  },
  '\\u00AD\\u034F\\u180E': {
    name: 'soft hyphen, combining grapheme joiner and Mongolian vowel separator',
    input: 'a\u00ADb\u034Fc\u180E',
    members: ['\u00AD', '\u034F', '\u180E'],
    prose: 'abc',
  },
  '\\u115F\\u1160\\u3164\\uFFA0': {
    name: 'Hangul fillers',
    input: 'a\u3164b\u115F',
    members: ['\u115F', '\u1160', '\u3164', '\uFFA0'],
    prose: 'ab',
  },
  '\\u{E0000}-\\u{E007F}': {
    name: 'tag characters',
    input: 'ok\u{E0069}\u{E0067}\u{E006E}\u{E007F}',
    members: ['\u{E0000}', '\u{E0001}', '\u{E0041}', '\u{E007F}'],
    prose: 'ok',
  },
  '\\u200C\\u200D': {
    name: 'zero-width non-joiner and joiner',
    // Kept: a ZWJ emoji sequence, Persian "می‌خواهم" and Hindi "क्‍ष"; removed: between Latin letters, doubled, at an edge.
    input:
      '\u{1F469}\u200D\u{1F4BB} \u0645\u06CC\u200C\u062E \u0915\u094D\u200D\u0937 a\u200Db \u0645\u200C\u200C\u062E \u200D',
    members: ['\u200C', '\u200D'],
    prose: '\u{1F469}\u200D\u{1F4BB} \u0645\u06CC\u200C\u062E \u0915\u094D\u200D\u0937 ab \u0645\u062E ',
  },
  '\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}': {
    name: 'variation selectors',
    // Kept: the emoji presentation of ❤ and an ideographic variant; removed: a run smuggling bytes.
    input: '\u2764\uFE0F \u845B\u{E0100} a\uFE0F\u{E0101}\u{E0102} \uFE0E',
    members: ['\uFE00', '\uFE0F', '\u{E0100}', '\u{E01EF}'],
    prose: '\u2764\uFE0F \u845B\u{E0100} a\uFE0F ',
  },
};

describe('the hidden-character table', () => {
  test.each(
    HIDDEN_CHARACTER_CLASSES.map(
      (hiddenClass) =>
        [SAMPLES[hiddenClass.characters]?.name ?? hiddenClass.characters, hiddenClass.characters] as const,
    ),
  )('%s', (_name, characters) => {
    const sample = SAMPLES[characters];
    expect(sample, `a sample for ${characters}`).toBeDefined();
    if (!sample) return;
    for (const member of sample.members) {
      const code = member.codePointAt(0)?.toString(16);
      expect(hasHiddenCharacters(`x${member}y`), `U+${code}`).toBe(true);
      expect(removeHiddenCharacters(`x${member}y`), `U+${code}`).toBe('xy');
      expect(markHiddenCharacters(member), `U+${code}`).toMatch(
        /^<span class="ac-invisible">⟪U\+[0-9A-F]{4,5}⟫<\/span>$/,
      );
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
