import { renderMarkdown } from '../markdown/render-markdown.ts';

/** Screen readers get at most this many characters of a finished answer. */
export const ANNOUNCE_MAX_CHARS = 1_000;

/** Returns what the live region says for a finished answer: its rendered text, whitespace collapsed, capped. */
export function announceText(markdown: string): string {
  const text = (renderMarkdown(markdown).textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > ANNOUNCE_MAX_CHARS ? `${text.slice(0, ANNOUNCE_MAX_CHARS)}…` : text;
}
