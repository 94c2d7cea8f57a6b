import type { Token } from 'marked';
import { EN_STRINGS } from '../i18n/en.ts';
import { lexMarkdown, renderTokensToHtml } from './render-tokens-to-html.ts';
import type { CodeBlock, MarkdownStrings } from './render-tokens-to-html.ts';
import { appendPlainText } from './plain-text.ts';
import { capText } from '../text/visible-text.ts';
import { sanitizeHtml } from './sanitize-html.ts';
import { finishLinks } from './finish-links.ts';
import { MARKDOWN_MAX_DEPTH } from './nesting-capped-tokenizer.ts';

export type { CodeBlock, MarkdownStrings } from './render-tokens-to-html.ts';

/** Messages longer than this many characters are truncated before parsing, with a visible notice. */
export const MARKDOWN_MAX_LENGTH = 200_000;

/** Default English strings, the widget's own (`EN_STRINGS`); the widget passes its translations through `strings`. */
export const DEFAULT_MARKDOWN_STRINGS: MarkdownStrings = {
  image: EN_STRINGS.markdownImage,
  truncated: EN_STRINGS.markdownTruncated,
};

/** Options for `renderMarkdown` and `renderMarkdownWithCode`. */
export interface RenderMarkdownOptions {
  /** Character limit before parsing; defaults to `MARKDOWN_MAX_LENGTH`. */
  maxLength?: number;
  /** Visible strings written by the renderer (placeholder text, truncation notice). */
  strings?: Partial<MarkdownStrings>;
}

/** A rendered message: sanitized inert DOM plus what the widget needs to wire it up. */
export interface RenderedMarkdown {
  fragment: DocumentFragment;
  /** Exact sources of the code blocks, in document order of the fragment's `<pre>` elements. */
  codeBlocks: CodeBlock[];
  /** Whether the input was cut at the length limit (a notice is in the fragment). */
  isTruncated: boolean;
  /** Whether parsing failed or nested too deep, so the input was rendered as plain text. */
  isFallback: boolean;
}

/** Renders model Markdown to a sanitized `DocumentFragment` (see `renderMarkdownWithCode`). */
export function renderMarkdown(markdown: string, options?: RenderMarkdownOptions): DocumentFragment {
  return renderMarkdownWithCode(markdown, options).fragment;
}

/**
 * Renders hostile model Markdown to sanitized DOM under the widget's policy and returns the code
 * block sources for copy buttons. Never throws: parser errors and deep nesting fall back to
 * escaped plain text; input over the limit is truncated first and a notice is appended.
 */
export function renderMarkdownWithCode(markdown: string, options?: RenderMarkdownOptions): RenderedMarkdown {
  const strings = { ...DEFAULT_MARKDOWN_STRINGS, ...options?.strings };
  const { text, isTruncated } = capText(markdown, options?.maxLength ?? MARKDOWN_MAX_LENGTH);
  let tokens: Token[] | undefined;
  try {
    tokens = lexMarkdown(text);
  } catch {
    tokens = undefined;
  }
  const rendered = renderMarkdownTokens(tokens, { source: text, strings });
  if (isTruncated) rendered.fragment.append(createNotice(strings.truncated));
  return { ...rendered, isTruncated };
}

/**
 * Renders already-lexed tokens through the same policy and sanitizer; when lexing failed
 * (`tokens` undefined), on any error, or on nesting over `MARKDOWN_MAX_DEPTH` renders `source`
 * as escaped plain text (`<p class="ac-plain">` paragraphs, see `appendPlainText`) instead. Never throws.
 */
export function renderMarkdownTokens(
  tokens: Token[] | undefined,
  options: { source: string; strings: MarkdownStrings },
): Omit<RenderedMarkdown, 'isTruncated'> {
  try {
    if (tokens && !isTooDeep(tokens, 1)) {
      const { html, codeBlocks } = renderTokensToHtml(tokens, options.strings);
      const fragment = sanitizeHtml(html);
      finishLinks(fragment);
      return { fragment, codeBlocks, isFallback: false };
    }
  } catch {
    // Rendered as plain text below.
  }
  return { ...renderPlainText(options.source), isFallback: true };
}

/** Builds the visible truncation notice element (`<p class="ac-notice">`). */
export function createNotice(text: string): HTMLParagraphElement {
  const notice = document.createElement('p');
  notice.className = 'ac-notice';
  notice.textContent = text;
  return notice;
}

function renderPlainText(text: string): { fragment: DocumentFragment; codeBlocks: CodeBlock[] } {
  const fragment = document.createDocumentFragment();
  appendPlainText(fragment, text);
  return { fragment, codeBlocks: [] };
}

/**
 * Whether `tokens`, lying `depth` levels deep, nest deeper than `MARKDOWN_MAX_DEPTH`. The recursion
 * stops one level past the limit, so a deep tree cannot overflow the stack.
 */
function isTooDeep(tokens: Token[], depth: number): boolean {
  return (
    depth > MARKDOWN_MAX_DEPTH ||
    tokens.some((token) => childTokens(token).some((children) => isTooDeep(children, depth + 1)))
  );
}

function childTokens(token: Token): Token[][] {
  if (token.type === 'list') return [token.items as Token[]];
  if (token.type === 'table') return [...token.header, ...token.rows.flat()].map((cell) => cell.tokens);
  return 'tokens' in token && Array.isArray(token.tokens) ? [token.tokens] : [];
}
