import type { css, html, nothing, render } from 'lit';
import type { markdownBody } from './message-list/markdown-body.ts';
import type { renderVisibleText } from './text/render-visible-text.ts';

/**
 * What a sibling file's parts render with: the widget's own Lit `html`, `nothing` and `css` and its
 * hidden-character renderer, handed in so the sibling file (docs/embedding.md "Sibling files")
 * carries no second copy of Lit and creates no Trusted Types policy of its own.
 */
export interface SiblingTemplating {
  html: typeof html;
  nothing: typeof nothing;
  css: typeof css;
  renderVisibleText: typeof renderVisibleText;
}

/**
 * What the tool call and approval cards (`agent-chat.tool-cards.js`) render with: the sibling
 * basics, and what the declarative widgets they show need too.
 */
export interface CardTemplating extends SiblingTemplating {
  /** Lit's `render`, for the widget element (docs/widgets.md), which renders into its own children. */
  render: typeof render;
  /** The answers' Markdown renderer, for a widget's `markdown` nodes. */
  markdownBody: typeof markdownBody;
  /** The script tag's only: loads a sibling file the cards carry the name and integrity of (src/parts/load-part-file.ts). */
  loadFile?: LoadFile | undefined;
}

/** Loads a sibling file beside `agent-chat.js` with its integrity, resolving with what `find` returns once it ran. */
export type LoadFile = <Part>(
  file: { fileName: string; integrity: string },
  find: () => Part | undefined,
) => Promise<Part>;
