import { html, type TemplateResult } from 'lit';

/** Renders one icon of `ICON_PATHS` (`icon-paths.ts`), drawn by the shared `.icon` rule, hidden from assistive technology (the button around it carries the label). */
export function renderIcon(path: string): TemplateResult {
  return html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${path}></path></svg>`;
}
