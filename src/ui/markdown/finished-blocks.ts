import type { Links, Token } from 'marked';
import { renderMarkdownTokens } from './render-markdown.ts';
import type { CodeBlock, MarkdownStrings } from './render-markdown.ts';

/** Finished blocks per chunk wrapper, so no box the browser re-styles or lays out grows without bound. */
const BLOCKS_PER_CHUNK = 32;
/** Class of the wrappers holding finished blocks (the widget's own structure, never model content). */
export const DONE_CHUNK_CLASS = 'ac-done';

interface Segment {
  source: string;
  /** The chunk wrapper holding this segment's nodes. */
  chunk: HTMLElement;
  nodes: Node[];
  codeBlocks: CodeBlock[];
  /** Definitions known when it rendered; -1 for a block left as text, which is never re-lexed. */
  linkCount: number;
}

/** The finished blocks of one streamed message: rendered once into chunks, never re-parsed while streaming. */
export interface FinishedBlocks {
  /** Reference definitions seen so far (first wins), for lexing later text. */
  readonly links: Links;
  /** Exact code sources of the finished blocks, in document order. */
  readonly codeBlocks: CodeBlock[];
  /** Renders finished blocks once into a chunk (without `tokens`, over budget: as escaped text); returns how many. */
  add(tokens: Token[] | undefined, source: string): number;
  /** Records the reference definitions among `tokens`. */
  addDefinitions(tokens: Token[]): void;
  /** Re-renders only the blocks that contain `[` and rendered before later definitions arrived, lexed by `lex`. */
  resolveForwardReferences(lex: (source: string) => Token[] | undefined): void;
  /** Removes every chunk and forgets the blocks and definitions. */
  clear(): void;
}

/**
 * Creates the finished blocks of a message rendered into `container`: chunks of up to 32 blocks
 * (`<div class="ac-done">`), each new one inserted before `nextSibling()` (the tail or the notice).
 */
export function createFinishedBlocks(options: {
  container: HTMLElement;
  strings: MarkdownStrings;
  nextSibling: () => Node | null;
}): FinishedBlocks {
  const { container, strings } = options;
  let segments: Segment[] = [];
  let links = Object.create(null) as Links;
  let linkCount = 0;
  let chunk: HTMLElement | undefined;
  let chunkBlocks = 0;

  function openChunk(): HTMLElement {
    if (chunk && chunkBlocks < BLOCKS_PER_CHUNK) return chunk;
    chunk = document.createElement('div');
    chunk.className = DONE_CHUNK_CLASS;
    chunkBlocks = 0;
    container.insertBefore(chunk, options.nextSibling());
    return chunk;
  }

  const blocks: FinishedBlocks = {
    get links() {
      return links;
    },
    get codeBlocks() {
      return segments.flatMap((segment) => segment.codeBlocks);
    },
    add(tokens, source) {
      const rendered = renderMarkdownTokens(tokens, { source, strings });
      const count = tokens ? tokens.filter((token) => token.type !== 'space').length : 1;
      const target = openChunk();
      const nodes = insert(target, rendered.fragment, null);
      chunkBlocks += count;
      blocks.addDefinitions(tokens ?? []);
      segments.push({
        source,
        chunk: target,
        nodes,
        codeBlocks: rendered.codeBlocks,
        linkCount: tokens ? linkCount : -1,
      });
      return count;
    },
    addDefinitions(tokens) {
      for (const token of tokens) {
        if (token.type !== 'def' || Object.hasOwn(links, token.tag)) continue;
        links[token.tag] = { href: token.href, title: token.title };
        linkCount += 1;
      }
    },
    resolveForwardReferences(lex) {
      for (const segment of segments) {
        if (segment.linkCount === linkCount || segment.linkCount < 0 || !segment.source.includes('[')) continue;
        const tokens = lex(segment.source);
        if (!tokens) continue;
        const rendered = renderMarkdownTokens(tokens, { source: segment.source, strings });
        const next = segment.nodes.at(-1)?.nextSibling ?? null;
        for (const node of segment.nodes) node.parentNode?.removeChild(node);
        segment.nodes = insert(segment.chunk, rendered.fragment, next);
        segment.codeBlocks = rendered.codeBlocks;
        segment.linkCount = linkCount;
      }
    },
    clear() {
      for (const segment of segments) segment.chunk.remove();
      segments = [];
      links = Object.create(null) as Links;
      linkCount = 0;
      chunk = undefined;
      chunkBlocks = 0;
    },
  };
  return blocks;
}

function insert(parent: Node, fragment: DocumentFragment, before: Node | null): Node[] {
  const nodes = Array.from(fragment.childNodes);
  parent.insertBefore(fragment, before);
  return nodes;
}
