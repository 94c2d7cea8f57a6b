import { css } from 'lit';

/**
 * The panel: a column filling its place, a scrolling list, one row per conversation. As the
 * widget's sheet (`[sheet]`) it covers the widget and takes the widget's theming tokens, which the
 * shared host rules would otherwise reset to their defaults.
 */
export const conversationsPanelStyles = css`
  :host {
    height: 100%;
    min-height: 0;
  }
  :host([sheet]) {
    position: absolute;
    inset: 0;
    z-index: 1;
    min-height: 0;
    --agent-chat-font-family: inherit;
    --agent-chat-mono-font-family: inherit;
    --agent-chat-font-size: inherit;
    --agent-chat-line-height: inherit;
    --agent-chat-radius: inherit;
    --agent-chat-spacing: inherit;
    --agent-chat-color-background: inherit;
    --agent-chat-color-surface: inherit;
    --agent-chat-color-user-message: inherit;
    --agent-chat-color-text: inherit;
    --agent-chat-color-text-muted: inherit;
    --agent-chat-color-border: inherit;
    --agent-chat-color-accent: inherit;
    --agent-chat-color-on-accent: inherit;
    --agent-chat-color-danger: inherit;
    --agent-chat-color-success: inherit;
    --agent-chat-color-warning: inherit;
    --agent-chat-color-focus: inherit;
  }
  .sheet {
    display: flex;
    flex-direction: column;
    height: 100%;
    min-height: 0;
  }
  .sheet-header {
    display: flex;
    align-items: center;
    gap: var(--agent-chat-spacing);
    padding: var(--agent-chat-spacing) 12px;
    border-bottom: 1px solid var(--agent-chat-color-border);
  }
  h2 {
    flex: 1;
    margin: 0;
    font-size: 15px;
  }
  .list {
    flex: 1;
    min-height: 0;
    overflow-y: auto;
    margin: 0;
    padding: var(--agent-chat-spacing);
    list-style: none;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px;
    padding: 4px;
    border-radius: var(--agent-chat-radius);
  }
  .row + .row {
    margin-top: 4px;
  }
  .row.current {
    background: var(--agent-chat-color-user-message);
  }
  .open {
    flex: 1;
    min-width: 0;
    display: grid;
    text-align: start;
    background: transparent;
    border-color: transparent;
  }
  .title {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .meta {
    font-size: 12px;
    color: var(--agent-chat-color-text-muted);
  }
  .rename-form,
  .confirm {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
    width: 100%;
  }
  .rename-form input {
    flex: 1;
    min-width: 0;
    font: inherit;
    padding: 4px 8px;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-background);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: calc(var(--agent-chat-radius) - 2px);
  }
  .confirm p {
    width: 100%;
  }
  button.danger {
    color: var(--agent-chat-color-on-accent);
    background: var(--agent-chat-color-danger);
    border-color: var(--agent-chat-color-danger);
  }
  .icon {
    display: block;
  }
  .rename-button,
  .delete-button,
  [part='close'] {
    padding: 6px;
  }
  .footer {
    padding: var(--agent-chat-spacing) 12px;
  }
  .status:not(:empty) {
    padding: 0 12px var(--agent-chat-spacing);
    font-size: 12px;
  }
`;
