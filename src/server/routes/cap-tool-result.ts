import type { BrowserToolLimits, Limits } from '../../core/protocol.ts';

/** Room left in an event for everything but a browser result's content (ids, kind, envelope). */
const ENVELOPE_ROOM_BYTES = 2_048;

/**
 * Serialises a browser tool's result as the model gets it (a string as it is, anything else as
 * JSON; nothing at all as `null`) and cuts it at `maxToolResultChars`, and further if its JSON
 * would not fit one event of `maxEventBytes`, marking it `truncated` (docs/protocol.md §19.3).
 */
export function capToolResult(
  result: unknown,
  limits: Pick<BrowserToolLimits, 'maxToolResultChars'> & Pick<Limits, 'maxEventBytes'>,
): { content: string; truncated: boolean } {
  const full = typeof result === 'string' ? result : (JSON.stringify(result ?? null) ?? 'null');
  let content = cutAt(full, limits.maxToolResultChars);
  const maxBytes = limits.maxEventBytes - ENVELOPE_ROOM_BYTES;
  // Escapes (control characters, quotes) and multi-byte characters can make the JSON longer than the text.
  while (Buffer.byteLength(JSON.stringify(content), 'utf8') > maxBytes) {
    content = cutAt(content, Math.floor(content.length * 0.75));
  }
  return { content, truncated: content.length < full.length };
}

/** The first `length` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  if (text.length <= length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
