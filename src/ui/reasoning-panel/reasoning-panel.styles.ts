import { css } from 'lit';

/** Styles of the reasoning panel (`::part(reasoning)`). */
export const reasoningPanelStyles = css`
  .reasoning {
    display: grid;
    gap: 4px;
    justify-items: start;
  }
  .reasoning-toggle {
    background: transparent;
    border-color: transparent;
    padding: 0 4px;
    color: var(--agent-chat-color-text-muted);
  }
  .reasoning-toggle::before {
    content: '▸ ';
  }
  .reasoning-toggle[aria-expanded='true']::before {
    content: '▾ ';
  }
  .reasoning-body {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    color: var(--agent-chat-color-text-muted);
    border-inline-start: 2px solid var(--agent-chat-color-border);
    padding-inline-start: 10px;
    font-size: 13px;
  }
  .reasoning-body[hidden] {
    display: none;
  }
`;
