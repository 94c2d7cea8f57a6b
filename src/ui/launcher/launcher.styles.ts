import { css } from 'lit';

/**
 * The launcher's floating button and panel. Custom properties (defaults here):
 * `--agent-chat-launcher-offset` (24px), `--agent-chat-launcher-size` (56px),
 * `--agent-chat-launcher-panel-width` (400px), `--agent-chat-launcher-panel-height` (600px),
 * `--agent-chat-launcher-z-index` (2147483000), `--agent-chat-launcher-color` (#0550ae, dark
 * #4493f8), `--agent-chat-launcher-on-color` (#ffffff, dark #0d1117). Parts: `launcher-button`, `launcher-panel`.
 * The shadow root holds just that one button and the one `#panel`, so plain selectors find them.
 */
export const launcherStyles = css`
  :host {
    all: initial;
    --agent-chat-launcher-offset: 24px;
    --agent-chat-launcher-size: 56px;
    --agent-chat-launcher-panel-width: 400px;
    --agent-chat-launcher-panel-height: 600px;
    --agent-chat-launcher-z-index: 2147483000;
    --agent-chat-launcher-color: light-dark(#0550ae, #4493f8);
    --agent-chat-launcher-on-color: light-dark(#ffffff, #0d1117);
    position: fixed;
    inset-inline-end: var(--agent-chat-launcher-offset);
    bottom: var(--agent-chat-launcher-offset);
    z-index: var(--agent-chat-launcher-z-index);
    display: block;
    color-scheme: light dark;
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
    width: var(--agent-chat-launcher-size);
    height: var(--agent-chat-launcher-size);
    margin: 0;
    padding: 0;
    border: 0;
    border-radius: 50%;
    background: var(--agent-chat-launcher-color);
    color: var(--agent-chat-launcher-on-color);
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.25);
    cursor: pointer;
  }
  button:focus-visible {
    outline: 3px solid var(--agent-chat-launcher-color);
    outline-offset: 3px;
  }
  svg {
    width: 26px;
    height: 26px;
    fill: currentColor;
  }
  #panel {
    position: absolute;
    inset-inline-end: 0;
    bottom: calc(var(--agent-chat-launcher-size) + 12px);
    width: min(var(--agent-chat-launcher-panel-width), calc(100vw - 2 * var(--agent-chat-launcher-offset)));
    height: min(var(--agent-chat-launcher-panel-height), calc(100vh - var(--agent-chat-launcher-size) - 3 * var(--agent-chat-launcher-offset)));
    display: flex;
    flex-direction: column;
    border-radius: 12px;
    overflow: hidden;
    box-shadow: 0 8px 32px rgb(0 0 0 / 0.3);
  }
  #panel[hidden] {
    display: none;
  }
  ::slotted(*) {
    flex: 1 1 auto;
    --agent-chat-height: 100%;
  }
`;
