/**
 * The one table of characters that can hide, fake or reorder what a person reads (Trojan Source,
 * invisible "tag" text, zero-width steganography, terminal escapes), and what each surface does
 * with them: prose (paragraphs, headings, list and table text) removes them, except joiners and
 * variation selectors where they do their legitimate job; link text and destinations remove them
 * all; code, tool arguments and approvals show each one as a visible `⟪U+XXXX⟫` marker.
 */

/** One class of hidden characters (its name is the comment above it in the table). */
export interface HiddenCharacterClass {
  /** The characters, as the body of a regular-expression character class with the `u` flag. */
  characters: string;
  /** Where prose keeps one: a pattern (lookarounds around the character); without it prose removes every one. */
  keptInProse?: string;
}

const SELECTORS = '\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}';

/** Every hidden-character class, each named in a comment; tab and line feed are not hidden. */
export const HIDDEN_CHARACTER_CLASSES: readonly HiddenCharacterClass[] = [
  // C0 and C1 controls (but tab and line feed) and DEL
  { characters: '\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F' },
  // bidi embeddings, overrides and isolates
  { characters: '\\u202A-\\u202E\\u2066-\\u2069' },
  // bidi marks
  { characters: '\\u061C\\u200E\\u200F' },
  // zero-width space, word joiner, invisible operators and byte order mark
  { characters: '\\u200B\\u2060-\\u2064\\uFEFF' },
  // line and paragraph separators
  { characters: '\\u2028\\u2029' },
  // soft hyphen, combining grapheme joiner and Mongolian vowel separator
  { characters: '\\u00AD\\u034F\\u180E' },
  // Hangul fillers
  { characters: '\\u115F\\u1160\\u3164\\uFFA0' },
  // tag characters
  { characters: '\\u{E0000}-\\u{E007F}' },
  // zero-width non-joiner and joiner
  {
    characters: '\\u200C\\u200D',
    // After a virama or other mark (Indic scripts) or an Arabic-script letter (Persian, Urdu), and
    // between the emoji of a ZWJ sequence; never between Latin letters.
    keptInProse:
      '(?<=[\\p{M}\\p{sc=Arab}\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\uFE0F])[\\u200C\\u200D](?=[\\p{L}\\p{M}\\p{Extended_Pictographic}])',
  },
  // variation selectors
  {
    characters: SELECTORS,
    // Right after a visible character (an emoji or ideograph variant), never as a run.
    keptInProse: `(?<=[^\\s${SELECTORS}])[${SELECTORS}]`,
  },
];

const ALL_CHARACTERS = HIDDEN_CHARACTER_CLASSES.map((hiddenClass) => hiddenClass.characters).join('');
const HIDDEN_PATTERN = new RegExp(`[${ALL_CHARACTERS}]`, 'gu');
/** Alternatives that keep a character in prose first; the last group captures one to remove. */
const PROSE_PATTERN = new RegExp(
  `${HIDDEN_CHARACTER_CLASSES.flatMap((hiddenClass) => hiddenClass.keptInProse ?? []).join('|')}|([${ALL_CHARACTERS}])`,
  'gu',
);

/** Returns `text` without any hidden character (link text and destinations). */
export function removeHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_PATTERN, '');
}

/** Returns prose `text` without hidden characters, keeping joiners and variation selectors where they join. */
export function removeHiddenProseCharacters(text: string): string {
  return text.replace(PROSE_PATTERN, (match, removed?: string) => (removed === undefined ? match : ''));
}

/** Returns whether `text` holds any hidden character. */
export function hasHiddenCharacters(text: string): boolean {
  return text.search(HIDDEN_PATTERN) !== -1;
}

/** Each hidden character of `text` (or, with `isProse`, each one prose would remove), with its index. */
export function findHiddenCharacters(text: string, isProse = false): Array<{ index: number; character: string }> {
  const found: Array<{ index: number; character: string }> = [];
  for (const match of text.matchAll(isProse ? PROSE_PATTERN : HIDDEN_PATTERN)) {
    const character = isProse ? match[1] : match[0];
    if (character !== undefined) found.push({ index: match.index, character });
  }
  return found;
}

/** Spells one character as the visible marker `⟪U+XXXX⟫`. */
export function formatCodePoint(character: string): string {
  return `⟪U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟫`;
}

/**
 * Returns HTML for already HTML-escaped code text in which each hidden character is shown as a
 * visible `⟪U+XXXX⟫` marker in a `<span class="ac-invisible">` (none of them needs HTML escaping).
 */
export function markHiddenCharacters(escapedText: string): string {
  return escapedText.replace(
    HIDDEN_PATTERN,
    (character) => `<span class="ac-invisible">${formatCodePoint(character)}</span>`,
  );
}
