import { css } from 'lit';

/** Layout of the element: the sheet's anchor, header, status line, scrolling transcript with its empty state, jump button, error box. */
export const agentChatStyles = css`
  /* The conversations sheet covers the widget; what it covers is inert while it is open. */
  :host {
    position: relative;
  }
  .content {
    display: contents;
  }
  .header {
    display: flex;
    align-items: center;
    gap: var(--agent-chat-space-m);
    padding: var(--agent-chat-space-m);
    padding-inline: var(--agent-chat-space-l) var(--agent-chat-space-m);
    border-bottom: 1px solid var(--agent-chat-color-border);
  }
  .avatar {
    width: 28px;
    height: 28px;
    border-radius: 50%;
    object-fit: cover;
  }
  .header-title {
    flex: 1;
    margin: 0;
    font-size: var(--agent-chat-font-size-title);
    font-weight: 600;
  }
  .header .icon-button {
    border-color: transparent;
    background: transparent;
  }
  .empty-state {
    display: grid;
    gap: var(--agent-chat-space-l);
    padding: 24px var(--agent-chat-space-xs);
    text-align: center;
    justify-items: center;
  }
  .greeting {
    font-size: var(--agent-chat-font-size-display);
    font-weight: 600;
  }
  .suggestions {
    justify-content: center;
  }
  .suggestions .chip {
    padding: var(--agent-chat-space-s) var(--agent-chat-space-l);
    background: transparent;
    font-size: var(--agent-chat-font-size-control);
  }
  .status,
  .error-details,
  .error-reference {
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-text-muted);
  }
  /* Empty, the line takes no room at all. */
  .status:not(:empty) {
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-l);
    border-bottom: 1px solid var(--agent-chat-color-border);
  }
  .transcript {
    flex: 1;
    min-height: 0;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: var(--agent-chat-space-l);
  }
  /* Block flow, not grid: a grid re-sizes every row when the last one grows, which made each
     streamed update cost grow with the length of the conversation (bench/long-session). Rows
     off screen skip layout and paint until they scroll into view. */
  .transcript-content > * + * {
    margin-top: var(--agent-chat-space-l);
  }
  .transcript-content > * {
    content-visibility: auto;
    contain-intrinsic-size: auto 160px;
  }
  /* While rows that landed above settle their size, the row in view is held by script alone. */
  .transcript[data-settling] {
    overflow-anchor: none;
  }
  /* While older messages exist: the line above the rows that says "Loading earlier messages…". */
  .older-status {
    min-height: 21px;
    text-align: center;
  }
  .jump-button {
    align-self: center;
    margin-top: -44px;
    margin-bottom: var(--agent-chat-space-m);
    position: relative;
    border-radius: 999px;
    box-shadow: var(--agent-chat-shadow);
  }
  /* The one error component (a failed answer's row, a failed request's box): an icon, the cause first, Retry when it can help. */
  .error {
    position: relative;
    padding: var(--agent-chat-space-m) var(--agent-chat-space-l);
    padding-inline-start: 36px;
    border: 1px solid var(--agent-chat-color-danger);
    border-radius: var(--agent-chat-radius);
    display: grid;
    gap: var(--agent-chat-space-xs);
    justify-items: start;
  }
  .error::before {
    content: '!';
    position: absolute;
    inset-inline-start: 10px;
    top: 10px;
    width: 18px;
    height: 18px;
    border-radius: 50%;
    background: var(--agent-chat-color-danger);
    color: var(--agent-chat-color-on-accent);
    font: 700 12px/18px var(--agent-chat-font-family);
    text-align: center;
  }
  .error > :first-child {
    font-weight: 600;
    color: var(--agent-chat-color-danger);
  }
  .reference {
    user-select: all;
    color: var(--agent-chat-color-text);
  }
`;
