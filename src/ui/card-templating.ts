import type { css, html, nothing } from 'lit';
import type { renderVisibleText } from './text/render-visible-text.ts';

/**
 * What the tool call and approval cards render with: the widget's own Lit `html`, `nothing` and
 * `css` and its hidden-character renderer, handed in so the cards' file (the script tag's sibling
 * file `agent-chat.tool-cards.js`, docs/embedding.md "Sibling files") carries no second copy of
 * Lit and creates no Trusted Types policy of its own.
 */
export interface CardTemplating {
  html: typeof html;
  nothing: typeof nothing;
  css: typeof css;
  renderVisibleText: typeof renderVisibleText;
}
