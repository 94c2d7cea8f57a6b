import { createStreamingMarkdown } from '../markdown/streaming-markdown.ts';

/** Screen readers get at most this many characters of a finished answer. */
export const ANNOUNCE_MAX_CHARS = 1_000;

/**
 * Returns what the live region says for a finished answer: its text as the Markdown pipeline
 * renders it (into a detached container), whitespace collapsed, capped.
 */
export function announceText(markdown: string): string {
  const container = document.createElement('div');
  const renderer = createStreamingMarkdown(container);
  renderer.update(markdown);
  renderer.finish();
  const text = (container.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > ANNOUNCE_MAX_CHARS ? `${text.slice(0, ANNOUNCE_MAX_CHARS)}…` : text;
}
