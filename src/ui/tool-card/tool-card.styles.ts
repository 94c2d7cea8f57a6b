import { css } from 'lit';

/** Styles of tool cards (`::part(tool-card)`). */
export const toolCardStyles = css`
  .tool-card {
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius);
    background: var(--agent-chat-color-surface);
    padding: var(--agent-chat-spacing);
    display: grid;
    gap: 6px;
    min-width: 0;
  }
  .tool-header {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 8px;
  }
  .tool-title {
    font-weight: 600;
  }
  .tool-status {
    margin-inline-start: auto;
    font-size: 12px;
    color: var(--agent-chat-color-text-muted);
  }
  .tool-status[data-status='completed'] {
    color: var(--agent-chat-color-success);
  }
  .tool-status:is([data-status='failed'], [data-status='denied']) {
    color: var(--agent-chat-color-danger);
  }
  .tool-status:is([data-status='awaiting_approval'], [data-status='unknown']) {
    color: var(--agent-chat-color-warning);
  }
  .tool-progress {
    display: flex;
    align-items: center;
    gap: 8px;
  }
  .tool-progress progress {
    flex: 1;
    accent-color: var(--agent-chat-color-accent);
  }
  .tool-text {
    margin: 4px 0 0;
    padding: 6px 8px;
    max-height: 240px;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    background: var(--agent-chat-color-background);
    border-radius: 4px;
  }
  .truncation-note {
    margin-top: 4px;
    font-size: 12px;
    color: var(--agent-chat-color-warning);
  }
`;
