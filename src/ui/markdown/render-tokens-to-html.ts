import { getDefaults, Lexer, Parser, Renderer } from 'marked';
import type { Links, Token, Tokens, TokensList } from 'marked';
import { checkLinkUrl } from './check-link-url.ts';
import { hasInvisibleCharacters, markInvisibleCharacters } from './invisible-characters.ts';

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

let parser: Parser | undefined;
/** The render in progress (the renderer hooks below only run inside `renderTokensToHtml`). */
let context: RenderContext = { codeBlocks: [], strings: { image: '', truncated: '' } };

/**
 * Lexes Markdown (GFM) into block tokens with marked's own defaults, never the host page's global
 * `marked` settings. `links` seeds the reference definitions known from earlier text (first
 * definition wins, as in one document). Throws what marked throws (e.g. RangeError on pathological
 * nesting); callers catch.
 */
export function lexMarkdown(source: string, links?: Links): TokensList {
  const lexer = new Lexer(getDefaults());
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(source);
}

/**
 * Renders tokens to an HTML string under the policy: raw HTML as escaped text, images as
 * placeholders, only checked links, code as text with hidden characters marked. The output
 * still goes through `sanitizeHtml`; never assign it to live DOM. Throws on parser errors.
 */
export function renderTokensToHtml(tokens: Token[], strings: MarkdownStrings): TokensHtml {
  // marked's defaults are the policy's: synchronous GFM, no soft breaks, not pedantic, throwing on errors.
  parser ??= new Parser({ ...getDefaults(), renderer: new PolicyRenderer() });
  const codeBlocks: CodeBlock[] = [];
  const previous = context;
  context = { codeBlocks, strings };
  try {
    return { html: parser.parse(tokens), codeBlocks };
  } finally {
    context = previous;
  }
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(ENCODE_ALL, (character) => HTML_ESCAPES[character] ?? character);
}

function escapeLoose(text: string): string {
  return text.replace(ENCODE_LOOSE, (character) => HTML_ESCAPES[character] ?? character);
}

function hostBadge(host: string): string {
  return host ? `<span class="ac-host">${escapeHtml(host)}</span>` : '';
}

/** marked's HTML renderer with every token kind that could carry markup or a URL put under the policy. */
class PolicyRenderer extends Renderer {
  override html(token: Tokens.HTML | Tokens.Tag): string {
    const text = escapeHtml(token.text.replace(/\n+$/, ''));
    return token.block ? `<p class="ac-raw">${text}</p>\n` : text;
  }
  override code({ text, lang }: Tokens.Code): string {
    const candidate = (lang ?? '').trim().split(/\s/, 1)[0]?.toLowerCase() ?? '';
    const language = LANGUAGE_PATTERN.test(candidate) ? candidate : '';
    context.codeBlocks.push({ text, language, hasHiddenCharacters: hasInvisibleCharacters(text) });
    // LANGUAGE_PATTERN admits nothing that needs escaping.
    const label = language ? `<span class="ac-code-lang">${language}</span>` : '';
    const languageClass = language ? ` class="language-${language}"` : '';
    return `<pre class="ac-code">${label}<code${languageClass}>${markInvisibleCharacters(escapeHtml(text))}</code></pre>\n`;
  }
  override codespan({ text }: Tokens.Codespan): string {
    return `<code>${markInvisibleCharacters(escapeHtml(text))}</code>`;
  }
  override text(token: Tokens.Text | Tokens.Escape): string {
    if ('tokens' in token && token.tokens) return this.parser.parseInline(token.tokens);
    return 'escaped' in token && token.escaped ? escapeHtml(token.text) : escapeLoose(token.text);
  }
  override link(token: Tokens.Link): string {
    const inner = this.parser.parseInline(token.tokens);
    const checked = checkLinkUrl(token.href);
    if (!checked) return inner;
    const attributes = `href="${escapeHtml(checked.href)}" title="${escapeHtml(checked.title)}" target="_blank" rel="noopener noreferrer"`;
    return `<a ${attributes}>${inner}</a>${hostBadge(checked.host)}`;
  }
  override image(token: Tokens.Image): string {
    const alt = this.parser.parseInline(token.tokens, this.parser.textRenderer).trim();
    const checked = checkLinkUrl(token.href);
    const title = checked ? ` title="${escapeHtml(checked.title)}"` : '';
    return `<span class="ac-img"${title}>${escapeLoose(alt || context.strings.image)}${hostBadge(checked?.host ?? '')}</span>`;
  }
  override checkbox({ checked }: Tokens.Checkbox): string {
    return checked ? '<span class="ac-task ac-task-done">☑</span> ' : '<span class="ac-task">☐</span> ';
  }
  override tablecell(token: Tokens.TableCell): string {
    const tag = token.header ? 'th' : 'td';
    const align = token.align ? ` class="ac-align-${token.align}"` : '';
    return `<${tag}${align}>${this.parser.parseInline(token.tokens)}</${tag}>\n`;
  }
}
