/**
 * How deep a request body's JSON may nest (docs/protocol.md §16): `{"a":[1]}` is 2 levels. Checked
 * on the text before it is parsed, so nothing recursive (validation, the canonical fingerprint)
 * ever sees a deeper value.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Returns whether JSON `text` opens more than `maxDepth` arrays or objects inside each other. One
 * pass over the characters, outside string literals; it stops at the first level too many. For
 * text that is not JSON the answer is only a bound, and parsing it fails anyway.
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let isInString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isInString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) isInString = false;
    } else if (code === QUOTE) {
      isInString = true;
    } else if (OPENERS.has(code)) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (CLOSERS.has(code)) {
      depth -= 1;
    }
  }
  return false;
}
