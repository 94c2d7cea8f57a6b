import { getDefaults, Lexer } from 'marked';
import type { Links, Token, Tokens, TokensList } from 'marked';
import { encodeLinkDestination } from './check-link-url.ts';
import { hasHiddenCharacters, markHiddenCharacters } from '../text/hidden-characters.ts';
import { NestingCappedTokenizer } from './nesting-capped-tokenizer.ts';

/** The exact source of one rendered code block, in document order of the `<pre>` elements. */
export interface CodeBlock {
  /** The code exactly as written by the model: what a copy button must put on the clipboard. */
  text: string;
  /** The sanitized language label ('' when none or when the info string was not plain). */
  language: string;
  /** Whether the code contains bidi controls or invisible characters (shown as `⟪U+XXXX⟫`). */
  hasHiddenCharacters: boolean;
}

/** Visible strings the renderer writes itself (the widget passes translations). */
export interface MarkdownStrings {
  /** Placeholder text for an image without alt text. */
  image: string;
  /** Notice appended when the message was cut at the length limit. */
  truncated: string;
}

/** HTML for a token list plus the code blocks in it, before sanitizing. */
export interface TokensHtml {
  html: string;
  codeBlocks: CodeBlock[];
}

interface RenderContext {
  codeBlocks: CodeBlock[];
  strings: MarkdownStrings;
}

const LANGUAGE_PATTERN = /^[a-z0-9+#-]{1,32}$/;
const ENCODE_ALL = /[&<>"']/g;
const ENCODE_LOOSE = /[<>"']|&(?!(?:#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Lexes Markdown (GFM) into block tokens with marked's own defaults, never the host page's global
 * `marked` settings, and blockquotes and lists nested no deeper than `NestingCappedTokenizer`
 * allows. `links` seeds the reference definitions known from earlier text (first definition wins,
 * as in one document). Throws what marked throws (e.g. RangeError on pathological inline
 * nesting); callers catch.
 */
export function lexMarkdown(source: string, links?: Links): TokensList {
  const lexer = new Lexer({ ...getDefaults(), tokenizer: new NestingCappedTokenizer() });
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(source);
}

/**
 * Renders tokens to an HTML string under the policy: raw HTML as escaped text, images as
 * placeholders (`finishLinks` checks their destination), links for the sanitizer to check, code as text with hidden characters marked; every other token
 * as marked's own renderer writes it. The output still goes through `sanitizeHtml`; never assign it
 * to live DOM. Throws on a token type it does not know.
 */
export function renderTokensToHtml(tokens: Token[], strings: MarkdownStrings): TokensHtml {
  const context: RenderContext = { codeBlocks: [], strings };
  return { html: renderAll(tokens, context), codeBlocks: context.codeBlocks };
}

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = escapeWith(ENCODE_ALL);
/** Escapes like `escapeHtml`, but leaves `&` that starts a character reference (as marked does). */
const escapeLoose = escapeWith(ENCODE_LOOSE);

function escapeWith(pattern: RegExp): (text: string) => string {
  return (text) => text.replace(pattern, (character) => HTML_ESCAPES[character] ?? character);
}

function renderAll(tokens: Token[], context: RenderContext): string {
  return tokens.map((token) => renderToken(token, context)).join('');
}

function renderToken(token: Token, context: RenderContext): string {
  switch (token.type) {
    case 'space':
    case 'def':
      return '';
    case 'hr':
      return '<hr>\n';
    case 'br':
      return '<br>';
    case 'heading': {
      const { depth, tokens } = token as Tokens.Heading;
      return `<h${depth}>${renderAll(tokens, context)}</h${depth}>\n`;
    }
    case 'paragraph':
      return `<p>${renderAll((token as Tokens.Paragraph).tokens, context)}</p>\n`;
    case 'blockquote':
      return `<blockquote>\n${renderAll((token as Tokens.Blockquote).tokens, context)}</blockquote>\n`;
    case 'strong':
    case 'em':
    case 'del':
      return `<${token.type}>${renderAll((token as Tokens.Strong).tokens, context)}</${token.type}>`;
    case 'list': {
      const { ordered, start, items } = token as Tokens.List;
      const tag = ordered ? 'ol' : 'ul';
      const body = items.map((item) => `<li>${renderAll(item.tokens, context)}</li>\n`).join('');
      return `<${tag}${ordered && start !== 1 ? ` start="${start}"` : ''}>\n${body}</${tag}>\n`;
    }
    case 'table': {
      const { header, rows } = token as Tokens.Table;
      const row = (cells: Tokens.TableCell[]): string =>
        `<tr>\n${cells.map((cell) => renderCell(cell, context)).join('')}</tr>\n`;
      const body = rows.map(row).join('');
      return `<table>\n<thead>\n${row(header)}</thead>\n${body && `<tbody>${body}</tbody>`}</table>\n`;
    }
    case 'checkbox':
      return token.checked ? '<span class="ac-task ac-task-done">☑</span> ' : '<span class="ac-task">☐</span> ';
    case 'html': {
      const text = escapeHtml(token.text.replace(/\n+$/, ''));
      return token.block ? `<p class="ac-raw">${text}</p>\n` : text;
    }
    case 'code':
      return renderCode(token as Tokens.Code, context);
    case 'codespan':
      return `<code>${markHiddenCharacters(escapeHtml(token.text))}</code>`;
    case 'text':
    case 'escape': {
      const { tokens, escaped, text } = token as Tokens.Text;
      if (tokens) return renderAll(tokens, context);
      return escaped ? escapeHtml(text) : escapeLoose(text);
    }
    case 'link': {
      const { tokens, href, autolink } = token as Tokens.Link;
      const text = autolink ? escapeHtml(token.text) : renderAll(tokens, context);
      const encoded = encodeLinkDestination(href);
      // As in marked's output, the HTML parser decodes character references in the attribute
      // (not for autolinks); the sanitizer checks the decoded destination and `finishLinks` adds the host.
      return encoded === undefined
        ? text
        : `<a href="${autolink ? escapeHtml(encoded) : escapeLoose(encoded)}">${text}</a>`;
    }
    case 'image': {
      const { tokens, href } = token as Tokens.Image;
      const alt = escapeLoose(plainText(tokens).trim() || context.strings.image);
      const encoded = encodeLinkDestination(href);
      return `<span class="ac-img"${encoded === undefined ? '' : ` title="${escapeLoose(encoded)}"`}>${alt}</span>`;
    }
    default:
      throw new Error(`Token with "${token.type}" type was not found.`);
  }
}

function renderCode({ text, lang }: Tokens.Code, context: RenderContext): string {
  const candidate = (lang ?? '').trim().split(/\s/, 1)[0]?.toLowerCase() ?? '';
  const language = LANGUAGE_PATTERN.test(candidate) ? candidate : '';
  context.codeBlocks.push({ text, language, hasHiddenCharacters: hasHiddenCharacters(text) });
  // LANGUAGE_PATTERN admits nothing that needs escaping.
  const label = language ? `<span class="ac-code-lang">${language}</span>` : '';
  const languageClass = language ? ` class="language-${language}"` : '';
  return `<pre class="ac-code">${label}<code${languageClass}>${markHiddenCharacters(escapeHtml(text))}</code></pre>\n`;
}

function renderCell(cell: Tokens.TableCell, context: RenderContext): string {
  const tag = cell.header ? 'th' : 'td';
  const align = cell.align ? ` class="ac-align-${cell.align}"` : '';
  return `<${tag}${align}>${renderAll(cell.tokens, context)}</${tag}>\n`;
}

/** The plain text of inline tokens, as marked's text renderer gives it (for an image's alt text). */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'br') return '\n';
      if (token.type === 'checkbox') return token.raw;
      const { tokens, text } = token as { tokens?: Token[]; text?: string };
      return token.type !== 'text' && tokens ? plainText(tokens) : (text ?? '');
    })
    .join('');
}
