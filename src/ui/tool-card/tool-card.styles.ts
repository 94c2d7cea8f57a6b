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
  /* Declarative widgets (docs/widgets.md): only design tokens, logical sides for right to left. */
  .tool-widget {
    display: block;
    margin-top: var(--agent-chat-space-s);
  }
  .widget,
  .widget-card,
  .widget-column,
  .widget-box,
  .widget-form {
    display: flex;
    flex-direction: column;
    gap: var(--agent-chat-space-s);
    min-width: 0;
  }
  .widget-card {
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius);
    background: var(--agent-chat-color-background);
    padding: var(--agent-chat-space-m);
  }
  .widget-row {
    display: flex;
    flex-wrap: wrap;
    gap: var(--agent-chat-space-s);
  }
  [data-gap='none'] {
    gap: 0;
  }
  [data-gap='large'] {
    gap: var(--agent-chat-space-l);
  }
  .widget-row[data-align='center'] {
    align-items: center;
  }
  .widget-row[data-align='end'] {
    align-items: flex-end;
  }
  .widget-title {
    margin: 0;
    font-size: var(--agent-chat-font-size-title);
  }
  .widget-text,
  .widget-caption,
  .widget-submitted,
  .widget-note,
  .widget-unsupported {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .widget-caption,
  .widget-unsupported,
  .widget-submitted {
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-text-muted);
  }
  .widget-unsupported {
    border: 1px dashed var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius-small);
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-s);
  }
  [data-tone='danger'],
  .widget-note {
    color: var(--agent-chat-color-danger);
  }
  [data-tone='success'] {
    color: var(--agent-chat-color-success);
  }
  [data-tone='warning'] {
    color: var(--agent-chat-color-warning);
  }
  [data-tone='info'] {
    color: var(--agent-chat-color-accent);
  }
  .widget-badge {
    align-self: center;
    border: 1px solid currentColor;
    border-radius: var(--agent-chat-radius-small);
    padding: 0 var(--agent-chat-space-xs);
    font-size: var(--agent-chat-font-size-small);
  }
  .widget-divider {
    width: 100%;
    border: 0;
    border-top: 1px solid var(--agent-chat-color-border);
    margin: 0;
  }
  .widget-icon {
    width: 1.25em;
    height: 1.25em;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
    flex: none;
  }
  .widget-image {
    max-width: 100%;
    border-radius: var(--agent-chat-radius-small);
  }
  .widget-list {
    margin: 0;
    padding-inline-start: var(--agent-chat-space-l);
  }
  .widget-key-value {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: var(--agent-chat-space-xs) var(--agent-chat-space-m);
    margin: 0;
  }
  .widget-key-value div {
    display: contents;
  }
  .widget-key-value dt {
    color: var(--agent-chat-color-text-muted);
  }
  .widget-key-value dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .widget-table-scroll {
    overflow: auto;
    max-height: 20em;
  }
  .widget-table {
    border-collapse: collapse;
    width: 100%;
  }
  .widget-table caption {
    text-align: start;
    color: var(--agent-chat-color-text-muted);
    font-size: var(--agent-chat-font-size-small);
  }
  .widget-table th,
  .widget-table td {
    text-align: start;
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-s);
    border-bottom: 1px solid var(--agent-chat-color-border);
  }
  .widget-button {
    align-self: flex-start;
    font: inherit;
    font-size: var(--agent-chat-font-size-control);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius-small);
    background: var(--agent-chat-color-surface);
    color: var(--agent-chat-color-text);
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-m);
    cursor: pointer;
  }
  .widget-button[data-style='primary'] {
    background: var(--agent-chat-color-accent);
    border-color: var(--agent-chat-color-accent);
    color: var(--agent-chat-color-on-accent);
  }
  .widget-button[data-style='danger'] {
    color: var(--agent-chat-color-danger);
  }
  .widget-button:disabled {
    cursor: default;
    opacity: 0.7;
  }
  .widget-field {
    display: flex;
    flex-direction: column;
    gap: var(--agent-chat-space-xs);
    border: 0;
    margin: 0;
    padding: 0;
  }
  .widget-field input:not([type='checkbox'], [type='radio']),
  .widget-field textarea,
  .widget-field select {
    font: inherit;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-background);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius-small);
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-s);
  }
  .widget-choice {
    flex-direction: row;
    align-items: center;
  }
  .widget :focus-visible {
    outline: 2px solid var(--agent-chat-color-focus);
    outline-offset: 2px;
  }
`;
}
