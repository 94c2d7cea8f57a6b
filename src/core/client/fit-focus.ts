import type { FocusContext } from '../protocol.ts';

/**
 * Returns `focus` within the server's announced `maxFocusChars` (docs/protocol.md §16.2): a longer
 * text is cut to fit and ends with a notice saying how much of it was sent, so the model is told
 * (never a silent cut); a text within the limit, or a server that announces none, leaves it as is.
 */
export function fitFocus(focus: FocusContext, maxChars: number | undefined): FocusContext {
  const { text } = focus;
  if (maxChars === undefined || text.length <= maxChars) return focus;
  const notice = `\n[Cut: the page gave ${text.length} characters.]`;
  return { ...focus, text: text.slice(0, Math.max(0, maxChars - notice.length)) + notice };
}
