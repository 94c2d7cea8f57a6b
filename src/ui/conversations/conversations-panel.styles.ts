import { css } from 'lit';

/** The side sheet: a column filling the widget, a scrolling list, one row per conversation. */
export const conversationsPanelStyles = css`
  :host {
    height: 100%;
    min-height: 0;
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
