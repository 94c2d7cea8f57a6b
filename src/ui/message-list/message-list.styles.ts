import { css } from 'lit';

/** Styles of transcript rows, messages (`::part(message)`), rendered Markdown and source cards. */
export const messageListStyles = css`
  .row,
  .message {
    min-width: 0;
  }
  .tool-row {
    display: grid;
    gap: 6px;
  }
  .message {
    display: grid;
    gap: 4px;
    overflow-wrap: anywhere;
  }
  .message.user {
    justify-self: end;
    max-width: 85%;
    background: var(--agent-chat-color-user-message);
    border-radius: var(--agent-chat-radius);
    padding: 6px 12px;
  }
  .message.user .message-body {
    white-space: pre-wrap;
  }
  .message-note {
    margin: 0;
    font-size: 12px;
  }
  .markdown {
    display: contents;
  }
  .markdown > :first-child {
    margin-top: 0;
  }
  .markdown > :last-child {
    margin-bottom: 0;
  }
  .markdown p,
  .markdown ul,
  .markdown ol,
  .markdown blockquote,
  .markdown table {
    margin: 0 0 8px;
  }
  .markdown h1,
  .markdown h2,
  .markdown h3,
  .markdown h4,
  .markdown h5,
  .markdown h6 {
    margin: 12px 0 6px;
    font-size: 15px;
    line-height: 1.35;
  }
  .markdown h1 {
    font-size: 18px;
  }
  .markdown h2 {
    font-size: 16px;
  }
  .markdown a {
    color: var(--agent-chat-color-accent);
  }
  .markdown pre {
    margin: 0 0 8px;
    padding: 8px;
    overflow: auto;
    background: var(--agent-chat-color-surface);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: 6px;
  }
  .markdown :not(pre) > code {
    padding: 1px 4px;
    background: var(--agent-chat-color-surface);
    border-radius: 4px;
  }
  .markdown blockquote {
    padding-inline-start: 10px;
    border-inline-start: 3px solid var(--agent-chat-color-border);
    color: var(--agent-chat-color-text-muted);
  }
  .markdown table {
    border-collapse: collapse;
    display: block;
    overflow: auto;
  }
  .markdown th,
  .markdown td {
    border: 1px solid var(--agent-chat-color-border);
    padding: 4px 8px;
  }
  .references,
  .context-refs {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 4px 0 0;
    padding: 0;
    list-style: none;
  }
  .reference-card,
  .context-ref {
    display: inline-flex;
    gap: 6px;
    padding: 2px 8px;
    border: 1px solid var(--agent-chat-color-border);
    border-radius: 999px;
    font-size: 12px;
    color: var(--agent-chat-color-text);
    text-decoration: none;
  }
  .reference-card:hover {
    border-color: var(--agent-chat-color-accent);
  }

  .markdown .ac-code {
    position: relative;
  }
  .markdown .ac-code-lang {
    display: block;
    font-size: 11px;
    color: var(--agent-chat-color-text-muted);
    margin-bottom: 4px;
  }
  .markdown .ac-copy {
    float: inline-end;
    margin: -4px -4px 0 8px;
    padding: 0 8px;
    font-size: 11px;
    user-select: none;
  }
  .markdown .ac-host,
  .markdown .ac-img {
    font-size: 12px;
    color: var(--agent-chat-color-text-muted);
  }
  .markdown .ac-host {
    margin-inline-start: 4px;
  }
  .markdown .ac-img {
    display: inline-block;
    padding: 0 6px;
    border: 1px dashed var(--agent-chat-color-border);
    border-radius: 4px;
  }
  .markdown .ac-invisible {
    color: var(--agent-chat-color-danger);
  }
  .markdown .ac-raw {
    white-space: pre-wrap;
  }
`;
