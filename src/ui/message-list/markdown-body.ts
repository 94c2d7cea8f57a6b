import { noChange } from 'lit';
import { Directive, directive, type ChildPart } from 'lit/directive.js';
import { createStreamingMarkdown, DONE_CHUNK_CLASS, type StreamingMarkdown } from '../markdown/streaming-markdown.ts';
import { findHighlighter } from '../../parts/highlight/highlight-on-demand.ts';
import { highlightCodeBlock } from '../markdown/highlight-code-block.ts';
import { copyToClipboard } from '../clipboard/copy-to-clipboard.ts';
import type { AgentChatStrings } from '../i18n/en.ts';

/** A stream with no new text for this long is paused: the body catches up on what the budget held back. */
const PAUSE_MS = 250;

/**
 * Labels the Markdown body writes itself, named as in the widget's strings (so those can be passed
 * as they are). `hiddenCharacters` flags a code block holding hidden characters (they show as
 * `⟪U+XXXX⟫`; copy keeps them).
 */
export type MarkdownBodyLabels = Pick<
  AgentChatStrings,
  'copyCode' | 'copied' | 'hiddenCharacters' | 'markdownImage' | 'markdownTruncated'
>;

/**
 * Owns one container element and one streaming Markdown renderer per transcript message across
 * Lit updates, so finished blocks stay the same DOM nodes while the message grows. Lit never
 * renders into the container; only the Markdown pipeline does, at most once per animation frame
 * (the final text is rendered at once). Each code block gets a copy button that copies the
 * block's exact source, not its DOM text, and a visible flag when that source holds hidden characters.
 * A finished code block that names a language is highlighted once, when the highlighter is here
 * (src/parts/highlight/highlight-on-demand.ts: the first such block loads it; the blocks highlight when it arrives).
 */
class MarkdownBodyDirective extends Directive {
  #container: HTMLDivElement | null = null;
  #renderer: StreamingMarkdown | null = null;
  #labels: MarkdownBodyLabels | null = null;
  #text = '';
  #isFinished = false;
  #frame = 0;
  #pause: ReturnType<typeof setTimeout> | undefined;
  /** The code blocks given to the highlighter already (a re-rendered block is a new element). */
  #highlighted = new WeakSet<Element>();

  render(_text: string, _isFinished: boolean, _labels: MarkdownBodyLabels): unknown {
    return noChange;
  }

  override update(_part: ChildPart, [text, isFinished, labels]: [string, boolean, MarkdownBodyLabels]): unknown {
    this.#labels = labels;
    if (!this.#container || !this.#renderer) {
      this.#container = document.createElement('div');
      this.#container.className = 'markdown';
      this.#container.addEventListener('click', this.#onClick);
      this.#renderer = createStreamingMarkdown(this.#container, {
        strings: { image: labels.markdownImage, truncated: labels.markdownTruncated },
      });
      this.#text = text;
      this.#isFinished = isFinished;
      this.#flush();
      return this.#container;
    }
    if (text === this.#text && isFinished === this.#isFinished) return noChange;
    this.#text = text;
    this.#isFinished = isFinished;
    if (isFinished) this.#flush();
    else this.#schedule();
    return noChange;
  }

  #schedule(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#flush();
    });
  }

  #flush(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    const renderer = this.#renderer;
    if (!renderer) return;
    renderer.update(this.#text);
    clearTimeout(this.#pause);
    // A stream that pauses shows all it sent: the render budget may have held the last deltas back.
    if (this.#isFinished) renderer.finish();
    else this.#pause = setTimeout(() => renderer.catchUp(), PAUSE_MS);
    this.#decorateCodeBlocks();
  }

  /** Highlights the finished code blocks not highlighted yet and adds the copy buttons missing. */
  #decorateCodeBlocks = (): void => {
    const codeBlocks = this.#renderer?.codeBlocks ?? [];
    const blocks = this.#container?.querySelectorAll('pre.ac-code') ?? [];
    blocks.forEach((pre, index) => {
      const block = codeBlocks[index];
      // Only finished blocks: the open tail is re-rendered while it streams.
      if (block?.language && !this.#highlighted.has(pre) && (this.#isFinished || pre.closest(`.${DONE_CHUNK_CLASS}`))) {
        const highlight = findHighlighter(this.#decorateCodeBlocks);
        if (highlight) {
          this.#highlighted.add(pre);
          highlightCodeBlock(pre, block, highlight);
        }
      }
      if (pre.querySelector(':scope > button.ac-copy')) return;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'ac-copy';
      button.textContent = this.#labels?.copyCode ?? '';
      pre.prepend(button);
      if (!block?.hasHiddenCharacters) return;
      const flag = document.createElement('span');
      flag.className = 'ac-code-hidden';
      flag.textContent = this.#labels?.hiddenCharacters ?? '';
      button.after(flag);
    });
  };

  #onClick = (event: Event): void => {
    const button = (event.target as Element).closest('button.ac-copy');
    const container = this.#container;
    if (!button || !container || !this.#renderer) return;
    const index = Array.from(container.querySelectorAll('pre.ac-code')).indexOf(button.parentElement as Element);
    const source = this.#renderer.codeBlocks[index]?.text;
    if (source === undefined) return;
    void copyToClipboard(source).then((isCopied) => {
      if (isCopied) button.textContent = this.#labels?.copied ?? '';
    });
  };
}

/** Renders a message's Markdown `text` through the streaming pipeline; `isFinished` flushes it once. */
export const markdownBody = directive(MarkdownBodyDirective);
