import { findHiddenCharacters, formatCodePoint } from './hidden-characters.ts';

/** A run of plain text, or one hidden/control character spelled out as `⟪U+XXXX⟫`. */
export interface TextSegment {
  text: string;
  isEscape: boolean;
}

/**
 * Splits `text` into plain runs and visible escapes for every hidden character of the table in
 * `hidden-characters.ts`; with `isProse`, joiners and variation selectors that join stay plain
 * (emoji sequences, Persian and Indic text).
 */
export function toVisibleSegments(text: string, isProse = false): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const { index, character } of findHiddenCharacters(text, isProse)) {
    if (index > last) segments.push({ text: text.slice(last, index), isEscape: false });
    segments.push({ text: formatCodePoint(character), isEscape: true });
    last = index + character.length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), isEscape: false });
  return segments;
}

/**
 * Returns `value` as pretty JSON text (two-space indent). A string that parses as JSON is
 * re-indented; any other string is returned as is; `undefined` gives an empty string.
 */
export function formatJsonText(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? '';
}

/** Cuts `text` to at most `maxChars` UTF-16 units without splitting a surrogate pair. */
export function capText(text: string, maxChars: number): { text: string; isTruncated: boolean } {
  if (text.length <= maxChars) return { text, isTruncated: false };
  const end = /[\uD800-\uDBFF]/.test(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return { text: text.slice(0, end), isTruncated: true };
}
