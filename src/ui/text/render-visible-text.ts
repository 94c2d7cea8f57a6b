import { html, type TemplateResult } from 'lit';
import { toVisibleSegments } from './visible-text.ts';

/**
 * Renders plain `text` as Lit text nodes (an array Lit renders in place), each hidden or control
 * character as a marked `⟪U+XXXX⟫`; `isProse` keeps joiners and variation selectors that join.
 */
export function renderVisibleText(text: string, isProse = false): Array<TemplateResult | string> {
  return toVisibleSegments(text, isProse).map((segment) =>
    segment.isEscape ? html`<span class="escape">${segment.text}</span>` : segment.text,
  );
}
