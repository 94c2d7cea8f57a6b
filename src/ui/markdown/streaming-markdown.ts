import type { Token } from 'marked';
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
import { createFinishedBlocks } from './finished-blocks.ts';
import { createRenderBudget } from './render-budget.ts';
import { findBlockEnd, readBlockStart, type BlockStart } from './find-block-end.ts';
import { findFinalBoundary, normalizeLineEndings, originalLength } from './final-boundary.ts';
import { appendPlainText } from './plain-text.ts';

/** Options for `createStreamingMarkdown`. */
export interface StreamingMarkdownOptions {
  /** Character limit; text beyond it is ignored and a notice is shown. Defaults to `MARKDOWN_MAX_LENGTH`. */
  maxLength?: number;
  /** Visible strings written by the renderer (placeholder text, truncation notice). */
  strings?: Partial<MarkdownStrings>;
  /** Milliseconds on a monotonic clock for the render budget; `performance.now` unless a test injects one. */
  now?: () => number;
  /** The render budget's clock for the time between renders (`RenderBudgetOptions.idleNow`); defaults to `now`. */
  idleNow?: () => number;
}

/** Counters for tests and benchmarks. */
export interface StreamingMarkdownStats {
  /** Top-level blocks rendered once and never touched again while streaming. */
  blocksFinalized: number;
  /** Renders of the open tail (as Markdown or, over budget, as escaped text). */
  tailRenders: number;
  /** Open blocks that went over the render budget and were shown as escaped text until they closed. */
  blocksOverBudget: number;
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
  /**
   * Renders the open tail up to the text received if the budget held the last updates back; for a
   * caller whose stream has paused (it costs one render, paid from later credit).
   */
  catchUp(): void;
  /** Renders the final tail without virtual closers and resolves late reference definitions. */
  finish(): void;
  /** Exact code sources, in document order of the container's `<pre>` elements. */
  readonly codeBlocks: readonly CodeBlock[];
  readonly stats: Readonly<StreamingMarkdownStats>;
  /** Whether the message hit the length limit (a notice is shown after the content). */
  readonly isTruncated: boolean;
}

/**
 * A tail whose Markdown render is predicted to take longer than this is over budget: it is shown
 * as escaped text until its block closes (one frame of 60 Hz).
 */
export const TAIL_RENDER_LIMIT_MS = 16;
/** A tail shorter than this is never over budget: its renders are only spaced out by the credit (a slow render of a short text is noise). */
export const OVER_BUDGET_MIN_LENGTH = 1_024;
/** The one Markdown render of an over-budget block once it closed (or at `finish()`) is done if predicted within this. */
export const CLOSED_RENDER_LIMIT_MS = 40;
export { DONE_CHUNK_CLASS } from './finished-blocks.ts';
/** Class of the wrapper holding the open tail, the only part replaced while streaming. */
export const TAIL_CLASS = 'ac-tail';

/**
 * Renders a growing assistant message into `container`: finished top-level blocks are rendered
 * once and never re-parsed or re-rendered while streaming; only the text after them (the open
 * tail) is lexed and re-rendered, on an `update` whose render the time budget covers
 * (`render-budget.ts`: each appended character and a share of the time between renders earn
 * render time; a render is timed with the layout it causes). A tail predicted to take over
 * `TAIL_RENDER_LIMIT_MS` is shown as escaped text until its block closes, then rendered once as
 * Markdown if predicted within `CLOSED_RENDER_LIMIT_MS` (else it stays text). A block is final when a later non-blank block
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
  const stats: StreamingMarkdownStats = { blocksFinalized: 0, tailRenders: 0, blocksOverBudget: 0, charactersLexed: 0 };
  const budgetClocks = { now: options?.now, idleNow: options?.idleNow };
  let budget = createRenderBudget(budgetClocks);
  let finalOffset = 0;
  const tailBox = document.createElement('div');
  tailBox.className = TAIL_CLASS;
  const finished = createFinishedBlocks({
    container,
    strings,
    nextSibling: () => (tailBox.parentNode === container ? tailBox : (notice ?? null)),
  });
  let hasTail = false;
  let tailCodeBlocks: CodeBlock[] = [];
  /** The open block while it is over budget: shown as escaped text up to `shown`, searched for its end up to `searched`. */
  let plain: { block: BlockStart; shown: number; searched: number } | undefined;
  let seenLength = 0;
  /** How much of `text` the last Markdown render of the tail showed. */
  let renderedLength = 0;
  let text = '';
  let notice: HTMLElement | undefined;
  let isFinished = false;

  function reset(): void {
    finished.clear();
    tailBox.remove();
    tailBox.replaceChildren();
    notice?.remove();
    finalOffset = 0;
    hasTail = false;
    tailCodeBlocks = [];
    budget = createRenderBudget(budgetClocks);
    plain = undefined;
    renderedLength = 0;
    text = '';
    notice = undefined;
    isFinished = false;
  }

  /** Renders finished blocks once into a chunk; without `tokens` (over budget) as escaped text, never re-lexed. */
  function finalize(tokens: Token[] | undefined, source: string): void {
    stats.blocksFinalized += finished.add(tokens, source);
  }

  /** Renders the open tail as Markdown, timed with the layout it causes so the budget sees the browser's share. */
  function renderTailTimed(): void {
    const tailLength = text.length - finalOffset;
    renderedLength = text.length;
    budget.spend(() => {
      renderTail(text.slice(finalOffset), false);
      void tailBox.offsetHeight;
    }, tailLength);
  }

  /** Shows `source` in the tail as escaped text (`<p class="ac-plain">` paragraphs), timed like a render. */
  function showTailAsText(source: string): void {
    budget.spend(() => {
      tailBox.replaceChildren();
      appendPlainText(tailBox, source);
      if (tailBox.parentNode !== container) container.insertBefore(tailBox, notice ?? null);
      void tailBox.offsetHeight;
    });
    hasTail = true;
    tailCodeBlocks = [];
    stats.tailRenders += 1;
  }

  /** Grows the over-budget block's escaped text, or closes the block once a later block starts. */
  function advancePlainBlock(open: NonNullable<typeof plain>): void {
    const end = findBlockEnd(text, open.block, open.searched);
    open.searched = text.length;
    if (end >= 0) {
      closePlainBlock(end);
      // The rest is new and small; it renders as Markdown as soon as the credit allows.
      if (budget.canAfford(0)) renderTailTimed();
      else showTailAsText(text.slice(finalOffset));
      return;
    }
    if (budget.canAfford(0)) appendTailText(open);
  }

  /** Appends the over-budget block's text not shown yet to the tail, timed like a render. */
  function appendTailText(open: NonNullable<typeof plain>): void {
    if (open.shown === text.length) return;
    const added = text.slice(open.shown);
    open.shown = text.length;
    budget.spend(() => {
      appendPlainText(tailBox, added);
      void tailBox.offsetHeight;
    });
    stats.tailRenders += 1;
  }

  /** Whether the one Markdown render of an over-budget block of `length` characters fits the budget. */
  function isClosedRenderWithin(length: number): boolean {
    return budget.predict(length) <= CLOSED_RENDER_LIMIT_MS && budget.canAfford(0);
  }

  /** Finalizes the over-budget block up to `end`: as Markdown once if predicted within the limit, else as text. */
  function closePlainBlock(end: number): void {
    const source = normalizeLineEndings(text.slice(finalOffset, end));
    const isWithin = isClosedRenderWithin(source.length);
    plain = undefined;
    budget.spend(() => (isWithin ? finalize(lexQuietly(source), source) : finalize(undefined, source.trimEnd())));
    finalOffset = end;
    budget.forgetBlock();
  }

  function renderTail(tail: string, isFinal: boolean): void {
    const normalized = normalizeLineEndings(tail);
    let tokens: Token[] | undefined;
    try {
      tokens = lexMarkdown(normalized, finished.links);
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
    if (tokens && isFinal) finished.addDefinitions(tokens);
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
      return lexMarkdown(source, finished.links);
    } catch {
      return undefined;
    }
  }

  function showNotice(isTruncated: boolean): void {
    if (!isTruncated || notice) return;
    notice = createNotice(strings.truncated);
    container.append(notice);
  }

  return {
    update(fullText: string): void {
      if (isFinished && fullText.length === seenLength) return;
      if (isFinished || fullText.length < seenLength) reset();
      seenLength = fullText.length;
      const truncated = capText(fullText, maxLength);
      // Append-only contract: equal length means no new text (a full string compare would cost O(message)).
      if (truncated.text.length === text.length && hasTail) return;
      budget.earn(truncated.text.length - text.length);
      text = truncated.text;
      const predicted = budget.predict(text.length - finalOffset);
      if (!plain && predicted > TAIL_RENDER_LIMIT_MS && text.length - finalOffset >= OVER_BUDGET_MIN_LENGTH) {
        showTailAsText(text.slice(finalOffset));
        plain = { block: readBlockStart(text, finalOffset), shown: text.length, searched: finalOffset };
        stats.blocksOverBudget += 1;
      }
      if (plain) advancePlainBlock(plain);
      // A short tail costs little whatever the model says (a slow render of it was noise): only the debt holds it back.
      else if (budget.canAfford(text.length - finalOffset < OVER_BUDGET_MIN_LENGTH ? 0 : predicted)) renderTailTimed();
      showNotice(truncated.isTruncated);
    },
    catchUp(): void {
      if (isFinished) return;
      const tailLength = text.length - finalOffset;
      const isWithinLimit = tailLength < OVER_BUDGET_MIN_LENGTH || budget.predict(tailLength) <= TAIL_RENDER_LIMIT_MS;
      if (plain) appendTailText(plain);
      else if (renderedLength < text.length && isWithinLimit) renderTailTimed();
    },
    finish(): void {
      if (isFinished) return;
      // The last block, if over budget, gets its one Markdown render only when predicted within the
      // limit; else the escaped text already on screen stays (laying it out again would cost as much).
      const tailLength = text.length - finalOffset;
      const isOverBudget = plain !== undefined || budget.predict(tailLength) > CLOSED_RENDER_LIMIT_MS;
      if (isOverBudget && tailLength >= OVER_BUDGET_MIN_LENGTH && !isClosedRenderWithin(tailLength)) {
        if (plain) appendTailText(plain);
        else showTailAsText(text.slice(finalOffset));
        plain = undefined;
      } else {
        if (plain) closePlainBlock(text.length);
        renderTail(text.slice(finalOffset), true);
      }
      finished.resolveForwardReferences(lexQuietly);
      isFinished = true;
    },
    get codeBlocks(): readonly CodeBlock[] {
      return [...finished.codeBlocks, ...tailCodeBlocks];
    },
    get stats(): Readonly<StreamingMarkdownStats> {
      return { ...stats };
    },
    get isTruncated(): boolean {
      return notice !== undefined;
    },
  };
}
