import type { HighlightCode } from '../../parts/highlight/highlight-global.ts';
import type { CodeBlock } from './render-tokens-to-html.ts';
import { sanitizeHtml } from './sanitize-html.ts';
import { markHiddenCharacters } from '../text/hidden-characters.ts';

/**
 * Replaces the `<code>` of `pre` (a rendered `pre.ac-code` of `block`, which names a language)
 * with the block highlighted by `highlight`, through the same sanitizer as all model-derived HTML
 * (which keeps `hljs-` classes on `span` only); hidden characters stay marked. A block `highlight`
 * returns nothing for stays as it is.
 */
export function highlightCodeBlock(pre: Element, block: CodeBlock, highlight: HighlightCode): void {
  const html = highlight(block.text, block.language);
  // `block.language` passed the renderer's language pattern: nothing in it needs escaping.
  if (html !== undefined) {
    pre
      .querySelector('code')
      ?.replaceWith(sanitizeHtml(`<code class="language-${block.language}">${markHiddenCharacters(html)}</code>`));
  }
}
