import { css } from 'lit';

/** Styles of the composer (`::part(composer)`): the textarea grows with its content via CSS only. */
export const composerStyles = css`
  .composer {
    display: grid;
    gap: 6px;
    padding: var(--agent-chat-spacing);
    border-top: 1px solid var(--agent-chat-color-border);
  }
  .composer-row {
    display: flex;
    align-items: flex-end;
    gap: 6px;
  }
  textarea {
    flex: 1;
    min-width: 0;
    resize: none;
    field-sizing: content;
    min-height: 36px;
    max-height: 200px;
    overflow-y: auto;
    padding: 7px 10px;
    font: inherit;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-background);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius);
  }
  textarea::placeholder {
    color: var(--agent-chat-color-text-muted);
    opacity: 1;
  }
  textarea[aria-invalid='true'] {
    border-color: var(--agent-chat-color-danger);
  }
  .composer-row > button {
    min-height: 36px;
  }
  .attach-button {
    font-size: 18px;
    padding: 0 12px;
  }
  .limit {
    font-size: 12px;
    color: var(--agent-chat-color-text-muted);
    text-align: end;
  }
  .limit[data-over='true'] {
    color: var(--agent-chat-color-danger);
  }
  .attachment {
    padding: 0 0 0 8px;
  }
  .attachment-remove {
    border: 0;
    background: transparent;
    padding: 0 8px;
  }
`;
