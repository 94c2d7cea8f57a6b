/** A run of plain text, or one hidden/control character spelled out as `⟪U+XXXX⟫`. */
export interface TextSegment {
  text: string;
  isEscape: boolean;
}

/**
 * C0/C1 controls (but tab and line feed), DEL, bidi controls, zero-width and invisible characters,
 * line/paragraph separators and the tag block U+E0000–E007F: characters that can hide or reorder
 * what a person reads in plain text (Trojan Source).
 */
const HIDDEN_PATTERN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

/** Splits `text` into plain runs and visible escapes for every hidden or control character. */
export function toVisibleSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN_PATTERN)) {
    const index = match.index ?? 0;
    if (index > last) segments.push({ text: text.slice(last, index), isEscape: false });
    const code = (match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    segments.push({ text: `⟪U+${code}⟫`, isEscape: true });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), isEscape: false });
  return segments;
}

/** Returns whether `text` holds any character that `toVisibleSegments` would escape. */
export function hasHiddenCharacters(text: string): boolean {
  HIDDEN_PATTERN.lastIndex = 0;
  return text.search(HIDDEN_PATTERN) !== -1;
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
