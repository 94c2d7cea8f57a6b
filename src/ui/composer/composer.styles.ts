import { css } from 'lit';

/** Styles of the composer (`::part(composer)`): one rounded box holding the growing textarea (CSS only) and its icon button. */
export const composerStyles = css`
  .composer {
    display: grid;
    gap: var(--agent-chat-space-s);
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-m) var(--agent-chat-space-m);
  }
  .composer-row {
    display: flex;
    align-items: flex-end;
    gap: var(--agent-chat-space-xs);
    padding: var(--agent-chat-space-xs);
    background: var(--agent-chat-color-background);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius-bubble);
  }
  .composer-row:focus-within {
    border-color: var(--agent-chat-color-focus);
  }
  textarea {
    flex: 1;
    min-width: 0;
    resize: none;
    field-sizing: content;
    min-height: 32px;
    max-height: 200px;
    overflow-y: auto;
    padding: 5px var(--agent-chat-space-m);
    font: inherit;
    color: var(--agent-chat-color-text);
    background: transparent;
    border: 0;
  }
  textarea:focus-visible {
    outline: 0;
  }
  textarea::placeholder {
    color: var(--agent-chat-color-text-muted);
    opacity: 1;
  }
  .composer-row:has([aria-invalid='true']) {
    border-color: var(--agent-chat-color-danger);
  }
  .composer-row > button {
    border-radius: 50%;
  }
  .stop-button .icon {
    fill: currentColor;
  }
  .limit {
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-text-muted);
    text-align: end;
  }
  .limit[data-over='true'] {
    color: var(--agent-chat-color-danger);
  }
`;
