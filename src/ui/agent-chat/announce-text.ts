import { createStreamingMarkdown } from '../markdown/streaming-markdown.ts';
import { capText } from '../text/visible-text.ts';

/** Screen readers get at most this many characters of a finished answer. */
export const ANNOUNCE_MAX_CHARS = 1_000;

/**
 * Markdown characters the announcement renders: enough for the first `ANNOUNCE_MAX_CHARS`
 * characters of an ordinary answer's text, few enough that hostile Markdown (whose lexing can take
 * more than quadratic time) renders in a few milliseconds, in the task that finishes the answer.
 */
export const ANNOUNCE_SOURCE_CHARS = 1_500;

/**
 * Returns what the live region says for a finished answer: the text of its first
 * `ANNOUNCE_SOURCE_CHARS` characters as the Markdown pipeline renders them (into a detached
 * container), whitespace collapsed, capped at `ANNOUNCE_MAX_CHARS` (`…` marks the cut).
 */
export function announceText(markdown: string): string {
  const container = document.createElement('div');
  const renderer = createStreamingMarkdown(container);
  renderer.update(capText(markdown, ANNOUNCE_SOURCE_CHARS).text);
  renderer.finish();
  const text = (container.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > ANNOUNCE_MAX_CHARS ? `${text.slice(0, ANNOUNCE_MAX_CHARS)}…` : text;
}
