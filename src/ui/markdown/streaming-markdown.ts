import type { Links, Token } from 'marked';
import { closeOpenInline } from './close-open-inline.ts';
import {
  createNotice,
  DEFAULT_MARKDOWN_STRINGS,
  MARKDOWN_MAX_LENGTH,
  renderMarkdownTokens,
} from './render-markdown.ts';
import { capText } from '../text/visible-text.ts';
import type { CodeBlock, MarkdownStrings } from './render-markdown.ts';
import { lexMarkdown } from './render-tokens-to-html.ts';

/** Options for `createStreamingMarkdown`. */
export interface StreamingMarkdownOptions {
  /** Character limit; text beyond it is ignored and a notice is shown. Defaults to `MARKDOWN_MAX_LENGTH`. */
  maxLength?: number;
  /** Visible strings written by the renderer (placeholder text, truncation notice). */
  strings?: Partial<MarkdownStrings>;
}

/** Counters for tests and benchmarks. */
export interface StreamingMarkdownStats {
  /** Top-level blocks rendered once and never touched again while streaming. */
  blocksFinalized: number;
  /** Renders of the open tail. */
  tailRenders: number;
  /** Characters handed to the lexer in total (flat per delta when blocks keep finishing). */
  charactersLexed: number;
}

/** A Markdown message rendered incrementally into a container the caller owns. */
export interface StreamingMarkdown {
  /**
   * Renders the message so far. `fullText` grows by appending; a shorter text, or a changed text
   * after `finish()`, starts the message over. Cheap enough to call once per animation frame.
   */
  update(fullText: string): void;
  /** Renders the final tail without virtual closers and resolves late reference definitions. */
  finish(): void;
  /** Exact code sources, in document order of the container's `<pre>` elements. */
  readonly codeBlocks: readonly CodeBlock[];
  readonly stats: Readonly<StreamingMarkdownStats>;
  /** Whether the message hit the length limit (a notice is shown after the content). */
  readonly isTruncated: boolean;
}

interface Segment {
  source: string;
  /** The chunk wrapper holding this segment's nodes. */
  chunk: HTMLElement;
  nodes: Node[];
  codeBlocks: CodeBlock[];
  linkCount: number;
}

/** Tails up to this length re-render on every update. */
const EAGER_TAIL_LENGTH = 2_048;
/**
 * Longer tails (one giant list, table or code block) re-render when enough work budget has
 * accumulated: each appended character earns this many characters of tail rendering, so the
 * total work stays linear in the message length whatever its shape.
 */
const WORK_PER_CHARACTER = 32;
/** Finished blocks per chunk wrapper, so no box the browser re-styles or lays out grows without bound. */
const BLOCKS_PER_CHUNK = 32;
/** Class of the wrappers holding finished blocks (the widget's own structure, never model content). */
export const DONE_CHUNK_CLASS = 'ac-done';
/** Class of the wrapper holding the open tail, the only part replaced while streaming. */
export const TAIL_CLASS = 'ac-tail';

/**
 * Renders a growing assistant message into `container`: finished top-level blocks are rendered
 * once and never re-parsed or re-rendered while streaming; only the text after them (the open
 * tail) is lexed and re-rendered on each `update`. A block is final when a later non-blank block
 * has started on a complete line (lists, tables, fences and indented code can still grow until
 * then); a reference definition stays in the tail until a blank line follows it. Definitions
 * resolve for later text while streaming; links that point forward to a later definition resolve
 * at `finish()`, which re-renders only the affected blocks. Scheduling (one update per animation
 * frame) is the caller's job; every render goes through the same policy and sanitizer.
 * Finished blocks go into `<div class="ac-done">` chunks of up to 32 blocks, the tail into one
 * `<div class="ac-tail">` after them, so an update replaces only the tail's contents.
 */
export function createStreamingMarkdown(container: HTMLElement, options?: StreamingMarkdownOptions): StreamingMarkdown {
  const strings: MarkdownStrings = { ...DEFAULT_MARKDOWN_STRINGS, ...options?.strings };
  const maxLength = options?.maxLength ?? MARKDOWN_MAX_LENGTH;
  const stats: StreamingMarkdownStats = { blocksFinalized: 0, tailRenders: 0, charactersLexed: 0 };
  let segments: Segment[] = [];
  let links: Links = Object.create(null) as Links;
  let linkCount = 0;
  let finalOffset = 0;
  const tailBox = createWrapper(TAIL_CLASS);
  let hasTail = false;
  let chunk: HTMLElement | undefined;
  let chunkBlocks = 0;
  let tailCodeBlocks: CodeBlock[] = [];
  let budget = 0;
  let seenLength = 0;
  let text = '';
  let notice: HTMLElement | undefined;
  let isFinished = false;

  function reset(): void {
    for (const segment of segments) segment.chunk.remove();
    tailBox.remove();
    tailBox.replaceChildren();
    notice?.remove();
    segments = [];
    links = Object.create(null) as Links;
    linkCount = 0;
    finalOffset = 0;
    hasTail = false;
    chunk = undefined;
    chunkBlocks = 0;
    tailCodeBlocks = [];
    budget = 0;
    text = '';
    notice = undefined;
    isFinished = false;
  }

  function insert(parent: Node, fragment: DocumentFragment, before: Node | null): Node[] {
    const nodes = Array.from(fragment.childNodes);
    parent.insertBefore(fragment, before);
    return nodes;
  }

  function openChunk(): HTMLElement {
    if (chunk && chunkBlocks < BLOCKS_PER_CHUNK) return chunk;
    chunk = createWrapper(DONE_CHUNK_CLASS);
    chunkBlocks = 0;
    container.insertBefore(chunk, tailBox.parentNode === container ? tailBox : (notice ?? null));
    return chunk;
  }

  function addDefinitions(tokens: Token[]): void {
    for (const token of tokens) {
      if (token.type !== 'def' || Object.hasOwn(links, token.tag)) continue;
      links[token.tag] = { href: token.href, title: token.title };
      linkCount += 1;
    }
  }

  function finalize(tokens: Token[], source: string): void {
    const rendered = renderMarkdownTokens(tokens, { source, strings });
    const blocks = tokens.filter((token) => token.type !== 'space').length;
    const target = openChunk();
    const nodes = insert(target, rendered.fragment, null);
    chunkBlocks += blocks;
    addDefinitions(tokens);
    segments.push({ source, chunk: target, nodes, codeBlocks: rendered.codeBlocks, linkCount });
    stats.blocksFinalized += blocks;
  }

  function renderTail(tail: string, isFinal: boolean): void {
    const normalized = tail.includes('\r') ? tail.replace(/\r\n?/g, '\n') : tail;
    let tokens: Token[] | undefined;
    try {
      tokens = lexMarkdown(normalized, links);
      stats.charactersLexed += normalized.length;
    } catch {
      tokens = undefined;
    }
    let source = normalized;
    if (tokens && !isFinal) {
      const cut = findFinalBoundary(tokens, normalized);
      if (cut.count > 0) {
        finalize(tokens.slice(0, cut.count), normalized.slice(0, cut.offset));
        finalOffset += originalLength(tail, cut.offset);
        tokens = tokens.slice(cut.count);
        source = normalized.slice(cut.offset);
      }
      const closed = tokens.at(-1)?.type === 'code' ? source : closeOpenInline(source);
      if (closed !== source) tokens = lexQuietly(closed);
    }
    if (tokens && isFinal) addDefinitions(tokens);
    const output = renderMarkdownTokens(tokens, { source, strings });
    tailBox.replaceChildren(output.fragment);
    if (tailBox.parentNode !== container) container.insertBefore(tailBox, notice ?? null);
    hasTail = true;
    tailCodeBlocks = output.codeBlocks;
    stats.tailRenders += 1;
  }

  function lexQuietly(source: string): Token[] | undefined {
    try {
      stats.charactersLexed += source.length;
      return lexMarkdown(source, links);
    } catch {
      return undefined;
    }
  }

  function showNotice(isTruncated: boolean): void {
    if (!isTruncated || notice) return;
    notice = createNotice(strings.truncated);
    container.append(notice);
  }

  function resolveForwardReferences(): void {
    for (const segment of segments) {
      if (segment.linkCount === linkCount || !segment.source.includes('[')) continue;
      const tokens = lexQuietly(segment.source);
      if (!tokens) continue;
      const rendered = renderMarkdownTokens(tokens, { source: segment.source, strings });
      const next = segment.nodes.at(-1)?.nextSibling ?? null;
      removeNodes(segment.nodes);
      segment.nodes = insert(segment.chunk, rendered.fragment, next);
      segment.codeBlocks = rendered.codeBlocks;
      segment.linkCount = linkCount;
    }
  }

  return {
    update(fullText: string): void {
      if (isFinished && fullText.length === seenLength) return;
      if (isFinished || fullText.length < seenLength) reset();
      seenLength = fullText.length;
      const truncated = capText(fullText, maxLength);
      // Append-only contract: equal length means no new text (a full string compare would cost O(message)).
      if (truncated.text.length === text.length && hasTail) return;
      budget = Math.min(budget + (truncated.text.length - text.length) * WORK_PER_CHARACTER, maxLength);
      text = truncated.text;
      const tailLength = text.length - finalOffset;
      if (tailLength <= EAGER_TAIL_LENGTH || budget >= tailLength) {
        if (tailLength > EAGER_TAIL_LENGTH) budget -= tailLength;
        renderTail(text.slice(finalOffset), false);
      }
      showNotice(truncated.isTruncated);
    },
    finish(): void {
      if (isFinished) return;
      renderTail(text.slice(finalOffset), true);
      resolveForwardReferences();
      isFinished = true;
    },
    get codeBlocks(): readonly CodeBlock[] {
      return [...segments.flatMap((segment) => segment.codeBlocks), ...tailCodeBlocks];
    },
    get stats(): Readonly<StreamingMarkdownStats> {
      return { ...stats };
    },
    get isTruncated(): boolean {
      return notice !== undefined;
    },
  };
}

/**
 * How many leading tokens are final, and where the text after them starts: everything before the
 * last non-blank token that starts on a complete line, as long as the raw texts line up with the
 * source and the token just before the cut is not a reference definition (its title may follow).
 */
function findFinalBoundary(tokens: Token[], source: string): { count: number; offset: number } {
  const lastNewline = source.lastIndexOf('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const token of tokens) {
    if (!source.startsWith(token.raw, offset)) break;
    starts.push(offset);
    offset += token.raw.length;
  }
  for (let index = starts.length - 1; index > 0; index -= 1) {
    const start = starts[index] ?? 0;
    const token = tokens[index];
    if (!token || token.type === 'space' || start > lastNewline) continue;
    if (tokens[index - 1]?.type === 'def') continue;
    return { count: index, offset: start };
  }
  return { count: 0, offset: 0 };
}

/** Length in the original tail of its first `normalizedLength` characters after CRLF/CR folding. */
function originalLength(tail: string, normalizedLength: number): number {
  if (!tail.includes('\r')) return normalizedLength;
  let original = 0;
  for (let count = 0; count < normalizedLength; count += 1) {
    original += tail[original] === '\r' && tail[original + 1] === '\n' ? 2 : 1;
  }
  return original;
}

function createWrapper(className: string): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = className;
  return wrapper;
}

function removeNodes(nodes: Node[]): void {
  for (const node of nodes) node.parentNode?.removeChild(node);
}
