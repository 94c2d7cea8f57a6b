/**
 * The one table of characters that can hide, fake or reorder what a person reads (Trojan Source,
 * invisible "tag" text, zero-width steganography, terminal escapes), and what each surface does
 * with them: prose (paragraphs, headings, list and table text, user messages) removes or marks
 * them, except joiners and variation selectors where they do their legitimate job
 * (`KEPT_IN_PROSE`); link text and destinations remove them all; code, tool arguments and
 * approvals show each one as a visible `⟪U+XXXX⟫` marker.
 */

/** One class of hidden characters (its name is the comment above it in the table). */
export interface HiddenCharacterClass {
  /** The characters, as a regular-expression atom with the `u` flag (a class or a property escape). */
  pattern: string;
}

/** Every hidden-character class, each named in a comment; tab and line feed are not hidden. */
export const HIDDEN_CHARACTER_CLASSES: readonly HiddenCharacterClass[] = [
  // C0 and C1 controls (but tab and line feed), DEL: terminal escapes, NUL, BEL
  { pattern: '[^\\P{Cc}\\t\\n]' },
  // line and paragraph separators
  { pattern: '[\\u2028\\u2029]' },
  // Unicode's Default_Ignorable_Code_Point, what renders as nothing: bidi controls and marks,
  // zero-width space, joiners, word joiner, invisible operators, byte order mark, soft hyphen,
  // combining grapheme joiner, variation selectors, Hangul fillers and the tag characters
  { pattern: '\\p{DI}' },
];

const SELECTORS = '\\u180B-\\u180D\\u180F\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}';

/** Where prose keeps a hidden character because it does a legitimate job there: a pattern of it with lookarounds. */
export const KEPT_IN_PROSE: readonly string[] = [
  // A zero-width (non-)joiner after a virama or other mark (Indic scripts) or an Arabic-script
  // letter (Persian, Urdu), or between the emoji of a ZWJ sequence; never between Latin letters.
  // (ExtPict is Extended_Pictographic, EMod Emoji_Modifier.)
  '(?<=[\\p{M}\\p{sc=Arab}\\p{ExtPict}\\p{EMod}\\uFE0F])[\\u200C\\u200D](?=[\\p{L}\\p{M}\\p{ExtPict}])',
  // A variation selector right after a visible character (an emoji or ideograph variant), never as a run.
  `(?<=[^\\s${SELECTORS}])[${SELECTORS}]`,
];

const ANY_HIDDEN = HIDDEN_CHARACTER_CLASSES.map((hiddenClass) => hiddenClass.pattern).join('|');
const HIDDEN_PATTERN = new RegExp(ANY_HIDDEN, 'gu');
/** The kept alternatives first; the last group captures a character prose removes. */
const PROSE_PATTERN = new RegExp(`${KEPT_IN_PROSE.join('|')}|(${ANY_HIDDEN})`, 'gu');

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
