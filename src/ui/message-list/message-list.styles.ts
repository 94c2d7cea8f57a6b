import { css } from 'lit';

/** Styles of transcript rows, messages (`::part(message)`), rendered Markdown and source cards. */
export const messageListStyles = css`
  .tool-row {
    display: grid;
    gap: var(--agent-chat-space-s);
  }
  /* One column that may shrink below its content: a wide code block or table scrolls inside itself. */
  .message {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: var(--agent-chat-space-xs);
    overflow-wrap: anywhere;
  }
  .message.user {
    width: fit-content;
    margin-inline-start: auto;
    max-width: 85%;
    background: var(--agent-chat-color-user-message);
    border-radius: var(--agent-chat-radius-bubble);
    border-end-end-radius: 4px;
    padding: var(--agent-chat-space-m) 14px;
  }
  /* A caret at the end of the text while the answer streams, inline after its last word. */
  [data-status='streaming'] :is(.ac-tail > :last-child, .ac-tail:empty)::after {
    content: '';
    display: inline-block;
    width: 2px;
    height: 16px;
    margin-inline-start: 1px;
    background: var(--agent-chat-color-text-muted);
    vertical-align: text-bottom;
    animation: ac-blink 1s steps(2) infinite;
  }
  @keyframes ac-blink {
    50% {
      opacity: 0;
    }
  }
  /* In the answer's place until its first row: three dots that pulse in turn (static under reduced motion). */
  .working {
    display: flex;
    align-items: center;
    gap: var(--agent-chat-space-xs);
    color: var(--agent-chat-color-text-muted);
  }
  .working i {
    width: 6px;
    height: 6px;
    border-radius: 50%;
    background: currentColor;
    animation: ac-blink 1.2s infinite;
  }
  .working i:nth-child(2) {
    animation-delay: 0.2s;
  }
  .working i:nth-child(3) {
    animation-delay: 0.4s;
    margin-inline-end: var(--agent-chat-space-xs);
  }
  .message.user .message-body {
    white-space: pre-wrap;
  }
  /* A failed attempt's output, kept while the run retries: it fades, the turn stays. */
  [data-discarded] {
    opacity: 0.5;
    transition: opacity 0.3s;
  }
  .message-note,
  .markdown :is(.ac-host, .ac-img) {
    font-size: var(--agent-chat-font-size-small);
    color: var(--agent-chat-color-text-muted);
  }
  /* New rows enter with a short fade (none under reduced motion). */
  .transcript-content > * {
    animation: ac-enter 0.2s ease-out;
  }
  @keyframes ac-enter {
    from {
      opacity: 0;
    }
  }
  /* content-visibility: auto already contains a finished chunk's layout, style and paint. */
  .ac-tail {
    contain: layout style;
  }
  .ac-done {
    content-visibility: auto;
    contain-intrinsic-size: auto 400px;
  }
  .markdown > :first-child > :first-child {
    margin-top: 0;
  }
  .markdown > :last-child,
  .markdown > :last-child > :last-child {
    margin-bottom: 0;
  }
  .markdown > * + * > :is(h1, h2, h3, h4, h5, h6):first-child {
    margin-top: var(--agent-chat-space-xs);
  }
  .markdown :is(p, ul, ol, blockquote, table, pre) {
    margin: 0 0 var(--agent-chat-space-m);
  }
  .markdown :is(h1, h2, h3, h4, h5, h6) {
    margin: 14px 0 var(--agent-chat-space-s);
    font-size: var(--agent-chat-font-size);
    line-height: 1.35;
  }
  .markdown h1 {
    font-size: var(--agent-chat-font-size-display);
  }
  .markdown h2 {
    font-size: 15.5px;
  }
  .markdown a {
    color: var(--agent-chat-color-accent);
  }
  .markdown pre,
  .markdown :not(pre) > code {
    padding: 1px var(--agent-chat-space-xs);
    background: var(--agent-chat-color-surface);
    border-radius: var(--agent-chat-radius-small);
  }
  .markdown pre {
    position: relative;
    padding: var(--agent-chat-space-m);
    overflow: auto;
    border: 1px solid var(--agent-chat-color-border);
    border-radius: calc(var(--agent-chat-radius-small) + 2px);
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
  .markdown :is(th, td) {
    border: 1px solid var(--agent-chat-color-border);
    padding: var(--agent-chat-space-xs) var(--agent-chat-space-m);
    text-align: start;
  }
  .markdown th {
    background: var(--agent-chat-color-surface);
  }
  .context-refs {
    margin-top: var(--agent-chat-space-xs);
  }
  .markdown .ac-code-lang {
    display: block;
    font-size: var(--agent-chat-font-size-caption);
    color: var(--agent-chat-color-text-muted);
    margin-bottom: var(--agent-chat-space-xs);
  }
  .markdown .ac-copy {
    float: inline-end;
    margin: -4px -4px 0 var(--agent-chat-space-m);
    padding: 0 var(--agent-chat-space-m);
    font-size: var(--agent-chat-font-size-caption);
    user-select: none;
  }
  .markdown .ac-host {
    margin-inline-start: var(--agent-chat-space-xs);
  }
  .markdown .ac-img {
    display: inline-block;
    padding: 0 var(--agent-chat-space-s);
    border: 1px dashed var(--agent-chat-color-border);
    border-radius: var(--agent-chat-radius-small);
  }
  .markdown .ac-invisible,
  .markdown .ac-code-hidden {
    color: var(--agent-chat-color-danger);
  }
  .markdown .ac-code-hidden {
    display: block;
    font-size: var(--agent-chat-font-size-caption);
    user-select: none;
  }
  /* Escaped text comes in paragraphs of at most 1,000 characters (plain-text.ts): read as one. */
  .markdown .ac-plain {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .markdown .ac-raw {
    white-space: pre-wrap;
  }
  /* Highlighted code (agent-chat.highlight.js): classes only, in the theme's colours. */
  .hljs-keyword,
  .hljs-deletion {
    color: var(--agent-chat-color-danger);
  }
  .hljs-string,
  .hljs-regexp,
  .hljs-addition {
    color: var(--agent-chat-color-success);
  }
  .hljs-number,
  .hljs-literal,
  .hljs-built_in,
  .hljs-type,
  .hljs-attr,
  .hljs-variable {
    color: var(--agent-chat-color-accent);
  }
  .hljs-title,
  .hljs-name,
  .hljs-section {
    color: var(--agent-chat-color-warning);
  }
  .hljs-comment,
  .hljs-quote,
  .hljs-meta {
    color: var(--agent-chat-color-text-muted);
  }
`;
