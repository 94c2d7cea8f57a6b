import { css } from 'lit';

/** Styles of the reasoning panel (`::part(reasoning)`). */
export const reasoningPanelStyles = css`
  .reasoning-body {
    margin-top: var(--agent-chat-space-xs);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    color: var(--agent-chat-color-text-muted);
    border-inline-start: 2px solid var(--agent-chat-color-border);
    padding-inline-start: 10px;
    font-size: var(--agent-chat-font-size-control);
  }
`;
