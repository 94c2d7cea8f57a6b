import { css } from 'lit';

/**
 * The widget's public design tokens with their defaults (docs/reference.md, "CSS custom
 * properties": a type scale, radii, a spacing scale derived from `--agent-chat-spacing`, one
 * elevation, the colours), host isolation, and the base rules every
 * piece shares (buttons, focus ring, visually hidden text, chips). Each colour is
 * declared once as `light-dark(light, dark)`; the theme only sets `color-scheme` (`auto` follows
 * `prefers-color-scheme`). Sizes are px so the host page's `html { font-size }` never rescales
 * the widget.
 */
export const hostStyles = css`
  :host {
    all: initial;
    --agent-chat-font-family: system-ui, sans-serif;
    --agent-chat-mono-font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    --agent-chat-font-size-caption: 11px;
    --agent-chat-font-size-small: 12px;
    --agent-chat-font-size-control: 13px;
    --agent-chat-font-size: 14px;
    --agent-chat-font-size-title: 15px;
    --agent-chat-font-size-display: 17px;
    --agent-chat-line-height: 1.5;
    --agent-chat-height: 560px;
    --agent-chat-radius-small: 4px;
    --agent-chat-radius: 12px;
    --agent-chat-radius-bubble: 18px;
    --agent-chat-spacing: 8px;
    --agent-chat-space-xs: calc(var(--agent-chat-spacing) / 2);
    --agent-chat-space-s: calc(var(--agent-chat-spacing) * 0.75);
    --agent-chat-space-m: var(--agent-chat-spacing);
    --agent-chat-space-l: calc(var(--agent-chat-spacing) * 1.5);
    --agent-chat-space-xl: calc(var(--agent-chat-spacing) * 2);
    --agent-chat-shadow: 0 1px 4px rgb(0 0 0 / 0.2);
    --agent-chat-color-background: light-dark(#ffffff, #0d1117);
    --agent-chat-color-surface: light-dark(#f6f8fa, #161b22);
    --agent-chat-color-user-message: light-dark(#eaf1fb, #1c2a3d);
    --agent-chat-color-text: light-dark(#1f2328, #e6edf3);
    --agent-chat-color-text-muted: light-dark(#57606a, #9da7b3);
    --agent-chat-color-border: light-dark(#d0d7de, #3d444d);
    --agent-chat-color-accent: light-dark(#0550ae, #79c0ff);
    --agent-chat-color-on-accent: light-dark(#ffffff, #0d1117);
    --agent-chat-color-danger: light-dark(#b42318, #ff8a80);
    --agent-chat-color-success: light-dark(#1a7f37, #56d364);
    --agent-chat-color-warning: light-dark(#8a4b00, #e3b341);
    --agent-chat-color-focus: light-dark(#0969da, #79c0ff);
    display: flex;
    flex-direction: column;
    box-sizing: border-box;
    height: var(--agent-chat-height);
    min-height: 240px;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-background);
    font-family: var(--agent-chat-font-family);
    font-size: var(--agent-chat-font-size);
    line-height: var(--agent-chat-line-height);
    text-align: start;
    color-scheme: light dark;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  button {
    font: inherit;
    font-size: var(--agent-chat-font-size-control);
    line-height: 20px;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-surface);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: calc(var(--agent-chat-radius) - 2px);
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-l);
    cursor: pointer;
  }
  button.primary {
    color: var(--agent-chat-color-on-accent);
    background: var(--agent-chat-color-accent);
    border-color: var(--agent-chat-color-accent);
  }
  button.danger {
    color: var(--agent-chat-color-on-accent);
    background: var(--agent-chat-color-danger);
    border-color: var(--agent-chat-color-danger);
  }
  .icon-button {
    display: inline-grid;
    place-items: center;
    width: 32px;
    height: 32px;
    padding: 0;
  }
  .icon {
    width: 18px;
    height: 18px;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  /* Disabled reads as disabled: a quiet outline in the surface colour, never a washed-out accent. */
  button:disabled {
    cursor: default;
    color: var(--agent-chat-color-text-muted);
    background: var(--agent-chat-color-surface);
    border-color: var(--agent-chat-color-border);
  }
  :focus-visible {
    outline: 2px solid var(--agent-chat-color-focus);
    outline-offset: 1px;
  }
  /* Code reads left to right in a right-to-left page too. */
  pre,
  code {
    font-family: var(--agent-chat-mono-font-family);
    font-size: var(--agent-chat-font-size-small);
    direction: ltr;
    unicode-bidi: isolate;
  }
  pre {
    text-align: left;
  }
  /* Phones: 16 px text so iOS does not zoom into the field, and 44 px tap targets. */
  @media (max-width: 480px) {
    .composer textarea {
      font-size: 16px;
    }
    button,
    summary {
      min-width: 44px;
      min-height: 44px;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
  p,
  h3 {
    margin: 0;
  }
  /* Every disclosure: its label vertically centred, then one chevron that turns down when open. */
  summary {
    display: flex;
    align-items: center;
    gap: var(--agent-chat-space-xs);
    list-style: none;
    cursor: pointer;
    color: var(--agent-chat-color-text-muted);
  }
  summary::-webkit-details-marker {
    display: none;
  }
  summary::after {
    content: '';
    flex: none;
    width: 5px;
    height: 5px;
    margin-inline: var(--agent-chat-space-xs);
    border: solid currentColor;
    border-width: 0 1.5px 1.5px 0;
    rotate: -45deg;
    transition: rotate 0.2s;
  }
  summary:dir(rtl)::after {
    rotate: 135deg;
  }
  [open] > summary::after {
    rotate: 45deg;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .muted {
    color: var(--agent-chat-color-text-muted);
  }
  .escape {
    color: var(--agent-chat-color-danger);
    font-weight: 600;
  }
  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: var(--agent-chat-space-s);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .chip {
    display: inline-flex;
    align-items: center;
    gap: var(--agent-chat-space-s);
    padding: 2px var(--agent-chat-space-m);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: 999px;
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-text);
    text-decoration: none;
  }
`;
