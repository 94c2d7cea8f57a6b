/**
 * The launcher's floating button and panel. Custom properties, read with their defaults so they
 * also work when set on the mount target or any ancestor: `--agent-chat-launcher-offset` (24px),
 * `--agent-chat-launcher-size` (56px), `--agent-chat-launcher-panel-width` (400px),
 * `--agent-chat-launcher-panel-height` (600px), `--agent-chat-launcher-z-index` (2147483000),
 * `--agent-chat-launcher-color` (#0550ae, dark #4493f8), `--agent-chat-launcher-on-color`
 * (#ffffff, dark #0d1117). Parts: `launcher-button`, `launcher-panel`. The shadow root holds just
 * that one button and the one `#panel`, so plain selectors find them. Corners are logical
 * (`inset-inline-end`), so a right-to-left page mirrors the launcher. Plain CSS text, not Lit's
 * `css`: the launcher is plain DOM and ships without Lit (`agent-chat.launcher.js`).
 */
export const LAUNCHER_CSS = `
  :host {
    all: initial;
    --o: var(--agent-chat-launcher-offset, 24px);
    --s: var(--agent-chat-launcher-size, 56px);
    --c: var(--agent-chat-launcher-color, light-dark(#0550ae, #4493f8));
    position: fixed;
    inset-inline-end: var(--o);
    bottom: var(--o);
    z-index: var(--agent-chat-launcher-z-index, 2147483000);
    display: block;
    color-scheme: light dark;
  }
  :host([position='bottom-start']) {
    inset-inline: var(--o) auto;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  button {
    display: grid;
    place-items: center;
    width: var(--s);
    height: var(--s);
    margin: 0;
    padding: 0;
    border: 0;
    border-radius: 50%;
    background: var(--c);
    color: var(--agent-chat-launcher-on-color, light-dark(#ffffff, #0d1117));
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.25);
    cursor: pointer;
  }
  button:focus-visible {
    outline: 3px solid var(--c);
    outline-offset: 3px;
  }
  svg {
    width: 26px;
    height: 26px;
    fill: currentColor;
  }
  :host([open]) svg {
    fill: none;
    stroke: currentColor;
    stroke-width: 2.5;
    stroke-linecap: round;
  }
  #panel {
    position: absolute;
    inset-inline-end: 0;
    bottom: calc(var(--s) + 12px);
    width: min(var(--agent-chat-launcher-panel-width, 400px), calc(100vw - 2 * var(--o)));
    height: min(var(--agent-chat-launcher-panel-height, 600px), calc(100vh - var(--s) - 3 * var(--o)));
    display: flex;
    flex-direction: column;
    border-radius: 16px;
    overflow: hidden;
    box-shadow: 0 8px 32px rgb(0 0 0 / 0.3);
    transition:
      opacity 0.18s,
      transform 0.18s,
      display 0.18s allow-discrete;
  }
  :host([position='bottom-start']) #panel {
    inset-inline: 0 auto;
  }
  #panel[hidden] {
    display: none;
    opacity: 0;
    transform: translateY(12px) scale(0.98);
  }
  @starting-style {
    #panel {
      opacity: 0;
      transform: translateY(12px) scale(0.98);
    }
  }
  ::slotted(*) {
    flex: 1 1 auto;
    --agent-chat-height: 100%;
  }
  /* Phones: the open panel is the whole screen (its header has the close button). */
  @media (max-width: 480px) {
    #panel {
      position: fixed;
      inset: 0;
      width: auto;
      height: auto;
      border-radius: 0;
    }
    :host([open]) button {
      display: none;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    #panel {
      transition: none;
    }
  }
`;
