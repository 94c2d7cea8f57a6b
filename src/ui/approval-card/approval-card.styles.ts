import type { css as cssTag, CSSResult } from 'lit';

/**
 * Styles of approval cards (`::part(approval-card)`): the arguments box is bounded so the buttons
 * stay beside it. Built with the widget's own `css` (see `CardTemplating`).
 */
export function createApprovalCardStyles(css: typeof cssTag): CSSResult {
  return css`
  .approval-card {
    border: 2px solid var(--agent-chat-color-warning);
    border-radius: var(--agent-chat-radius);
    padding: 10px 12px;
    display: grid;
    gap: 8px;
    min-width: 0;
  }
  .approval-card[data-destructive] {
    border-color: var(--agent-chat-color-danger);
  }
  /* Answered: one quiet line, title and outcome. */
  .approval-card:not([data-state='open']) {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    padding: 6px 10px;
    border-width: 1px;
    border-color: var(--agent-chat-color-border);
    background: var(--agent-chat-color-surface);
  }
  .approval-title {
    font-size: 15px;
    line-height: 1.4;
    overflow-wrap: anywhere;
  }
  .approval-title,
  .approval-key {
    font-weight: 600;
  }
  .approval-outcome {
    color: var(--agent-chat-color-text-muted);
  }
  .approval-consequence {
    overflow-wrap: anywhere;
  }
  .approval-card[data-destructive] .approval-consequence {
    color: var(--agent-chat-color-danger);
    font-weight: 600;
  }
  .approval-warning {
    color: var(--agent-chat-color-danger);
    font-size: 12px;
  }
  .approval-args,
  .approval-json {
    max-height: 280px;
    overflow: auto;
    background: var(--agent-chat-color-surface);
    border-radius: 4px;
    padding: 6px 8px;
  }
  /* The arguments as a key–value list: labels in a column of their own, up to 40% wide. */
  .approval-args dl {
    display: grid;
    grid-template-columns: fit-content(40%) minmax(0, 1fr);
    gap: 4px 12px;
    margin: 0;
  }
  .approval-arg {
    display: contents;
  }
  .approval-arg dt {
    color: var(--agent-chat-color-text-muted);
    overflow-wrap: anywhere;
  }
  .approval-arg dd {
    margin: 0;
    min-width: 0;
  }
  .approval-arg .approval-value {
    white-space: pre-wrap;
  }
  .approval-details > summary {
    font-size: 13px;
  }
  /* Phones: the disclosures' 44 px rows hold their label in the middle, not at the top. */
  @media (max-width: 480px) {
    .approval-card summary {
      padding-block: 12px;
      line-height: 20px;
    }
  }
  .approval-details[open] {
    display: grid;
    gap: 6px;
  }
  .approval-tool {
    font-size: 12px;
    color: var(--agent-chat-color-text-muted);
  }
  .approval-json {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .approval-value {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  /* A proposal's diff lines. */
  .approval-value[data-change='added'] {
    color: var(--agent-chat-color-success);
  }
  .approval-value[data-change='removed'] {
    color: var(--agent-chat-color-danger);
  }
  .approval-actions {
    display: flex;
    align-items: center;
    gap: 8px;
  }
`;
}
