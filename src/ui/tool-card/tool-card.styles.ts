import type { css as cssTag, CSSResult } from 'lit';

/**
 * Styles of tool cards (`::part(tool-card)`): one line with a status mark; consecutive cards join
 * into one box. Built with the widget's own `css` (see `CardTemplating`).
 */
export function createToolCardStyles(css: typeof cssTag): CSSResult {
  return css`
  .tool-card {
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius);
    background: var(--agent-chat-color-surface);
    padding: var(--agent-chat-space-s) 10px;
    min-width: 0;
  }
  /* Consecutive tool calls join into one box: no gap, the shared edges square. */
  .transcript-content > .tool-row + .tool-row {
    margin-top: -1px;
  }
  .tool-row:has(+ .tool-row) .tool-card {
    border-end-start-radius: 0;
    border-end-end-radius: 0;
  }
  .tool-row + .tool-row .tool-card {
    border-start-start-radius: 0;
    border-start-end-radius: 0;
  }
  .tool-summary {
    color: var(--agent-chat-color-text);
  }
  .tool-mark::before {
    content: '•';
    display: inline-block;
    width: 1.4em;
    text-align: center;
  }
  [data-status='completed'] .tool-mark::before {
    content: '✓';
    color: var(--agent-chat-color-success);
  }
  :is([data-status='failed'], [data-status='denied'], [data-status='cancelled']) .tool-mark::before {
    content: '✕';
    color: var(--agent-chat-color-danger);
  }
  /* Running: the dot pulses like the streaming caret. */
  [data-status='running'] .tool-mark::before {
    color: var(--agent-chat-color-accent);
    animation: ac-blink 1s steps(2) infinite;
  }
  .tool-title {
    font-weight: 600;
  }
  .tool-status,
  .tool-label {
    margin-inline-start: var(--agent-chat-space-s);
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-text-muted);
  }
  .tool-label {
    margin: var(--agent-chat-space-s) 0 0;
  }
  .tool-progress {
    display: flex;
    align-items: center;
    gap: var(--agent-chat-space-m);
  }
  .tool-progress progress {
    flex: 1;
    accent-color: var(--agent-chat-color-accent);
  }
  .tool-text {
    margin: var(--agent-chat-space-xs) 0 0;
    padding: var(--agent-chat-space-s) var(--agent-chat-space-m);
    max-height: 240px;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    background: var(--agent-chat-color-background);
    border-radius: var(--agent-chat-radius-small);
  }
  .truncation-note {
    margin-top: var(--agent-chat-space-xs);
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-warning);
  }
`;
}
