import { css } from 'lit';

/** Styles of approval cards (`::part(approval-card)`): the arguments box is bounded so the buttons stay beside it. */
export const approvalCardStyles = css`
  .approval-card {
    border: 2px solid var(--agent-chat-color-warning);
    border-radius: var(--agent-chat-radius);
    padding: var(--agent-chat-spacing);
    display: grid;
    gap: 8px;
    min-width: 0;
  }
  .approval-card:not([data-state='open']) {
    border-width: 1px;
    border-color: var(--agent-chat-color-border);
  }
  .approval-title {
    font-size: 14px;
  }
  .approval-title,
  .approval-key,
  .approval-outcome[data-state='resolved'] {
    font-weight: 600;
  }
  .approval-warning {
    color: var(--agent-chat-color-danger);
    font-size: 12px;
  }
  .approval-args {
    max-height: 280px;
    overflow: auto;
    background: var(--agent-chat-color-surface);
    border-radius: 4px;
    padding: 6px 8px;
  }
  .approval-value {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .approval-actions {
    display: flex;
    align-items: center;
    gap: 8px;
  }
`;
