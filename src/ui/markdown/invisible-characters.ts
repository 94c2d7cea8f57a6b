/**
 * Characters that can make text read differently from what it is (Trojan Source, hidden "tag"
 * text, terminal escapes): C0/C1 controls other than tab and newline, U+200B–200F,
 * U+202A–202E, U+2060, U+2066–2069, U+FEFF and the tag block U+E0000–E007F.
 */
const INVISIBLE_PATTERN =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/gu;

/** Bidi embedding/override/isolate controls and tag characters: stripped from prose. */
const PROSE_STRIP_PATTERN = /[\u202A-\u202E\u2066-\u2069]|\uDB40[\uDC00-\uDC7F]/gu;

/** Returns `text` with every control, bidi control and invisible character removed (link text, URLs). */
export function stripInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE_PATTERN, '');
}

/**
 * Returns prose `text` without bidi embedding/override/isolate controls and tag characters.
 * U+200B–200F, U+2060 and U+FEFF stay: ZWJ/ZWNJ and LRM/RLM are legitimate in emoji and
 * right-to-left scripts, and they cannot reorder or hide text on their own.
 */
export function stripProseControls(text: string): string {
  return text.replace(PROSE_STRIP_PATTERN, '');
}

/** Returns whether `text` contains a bidi control, invisible or control character (not tab/newline). */
export function hasInvisibleCharacters(text: string): boolean {
  INVISIBLE_PATTERN.lastIndex = 0;
  const found = INVISIBLE_PATTERN.test(text);
  INVISIBLE_PATTERN.lastIndex = 0;
  return found;
}

/**
 * Returns HTML for already HTML-escaped code text in which each bidi control, invisible or
 * control character (not tab/newline) is shown as a visible `⟪U+XXXX⟫` marker in a
 * `<span class="ac-invisible">`.
 */
export function markInvisibleCharacters(escapedText: string): string {
  return escapedText.replace(INVISIBLE_PATTERN, (character) => {
    const code = (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return `<span class="ac-invisible">⟪U+${code}⟫</span>`;
  });
}
