import { css } from 'lit';

/**
 * The widget's public theming tokens with their defaults (light, dark, and `auto` following
 * `prefers-color-scheme`), host isolation, and the base rules every piece shares (buttons, focus
 * ring, visually hidden text). Sizes are px so the host page's `html { font-size }` never
 * rescales the widget.
 */
export const hostStyles = css`
  :host {
    all: initial;
    --agent-chat-font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif;
    --agent-chat-mono-font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    --agent-chat-font-size: 14px;
    --agent-chat-line-height: 1.5;
    --agent-chat-height: 560px;
    --agent-chat-radius: 8px;
    --agent-chat-spacing: 8px;
    --agent-chat-color-background: #ffffff;
    --agent-chat-color-surface: #f6f8fa;
    --agent-chat-color-user-message: #eaf1fb;
    --agent-chat-color-text: #1f2328;
    --agent-chat-color-text-muted: #57606a;
    --agent-chat-color-border: #d0d7de;
    --agent-chat-color-accent: #0550ae;
    --agent-chat-color-on-accent: #ffffff;
    --agent-chat-color-danger: #b42318;
    --agent-chat-color-success: #1a7f37;
    --agent-chat-color-warning: #8a4b00;
    --agent-chat-color-focus: #0969da;
    display: flex;
    flex-direction: column;
    box-sizing: border-box;
    height: var(--agent-chat-height);
    min-height: 240px;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-background);
    font-family: var(--agent-chat-font-family);
    font-size: var(--agent-chat-font-size);
    line-height: var(--agent-chat-line-height);
    text-align: start;
    color-scheme: light;
  }
  :host([hidden]) {
    display: none;
  }
  :host([theme='dark']) {
    --agent-chat-color-background: #0d1117;
    --agent-chat-color-surface: #161b22;
    --agent-chat-color-user-message: #1c2a3d;
    --agent-chat-color-text: #e6edf3;
    --agent-chat-color-text-muted: #9da7b3;
    --agent-chat-color-border: #3d444d;
    --agent-chat-color-accent: #79c0ff;
    --agent-chat-color-on-accent: #0d1117;
    --agent-chat-color-danger: #ff8a80;
    --agent-chat-color-success: #56d364;
    --agent-chat-color-warning: #e3b341;
    --agent-chat-color-focus: #79c0ff;
    color-scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light']):not([theme='dark'])) {
      --agent-chat-color-background: #0d1117;
      --agent-chat-color-surface: #161b22;
      --agent-chat-color-user-message: #1c2a3d;
      --agent-chat-color-text: #e6edf3;
      --agent-chat-color-text-muted: #9da7b3;
      --agent-chat-color-border: #3d444d;
      --agent-chat-color-accent: #79c0ff;
      --agent-chat-color-on-accent: #0d1117;
      --agent-chat-color-danger: #ff8a80;
      --agent-chat-color-success: #56d364;
      --agent-chat-color-warning: #e3b341;
      --agent-chat-color-focus: #79c0ff;
      color-scheme: dark;
    }
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button {
    font: inherit;
    font-size: 13px;
    line-height: 20px;
    color: var(--agent-chat-color-text);
    background: var(--agent-chat-color-surface);
    border: 1px solid var(--agent-chat-color-border);
    border-radius: calc(var(--agent-chat-radius) - 2px);
    padding: 4px 12px;
    cursor: pointer;
  }
  button.primary {
    color: var(--agent-chat-color-on-accent);
    background: var(--agent-chat-color-accent);
    border-color: var(--agent-chat-color-accent);
  }
  button:disabled {
    cursor: default;
    opacity: 0.55;
  }
  :focus-visible {
    outline: 2px solid var(--agent-chat-color-focus);
    outline-offset: 2px;
  }
  pre,
  code {
    font-family: var(--agent-chat-mono-font-family);
    font-size: 12px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
  .muted {
    color: var(--agent-chat-color-text-muted);
  }
  .escape {
    color: var(--agent-chat-color-danger);
    font-weight: 600;
  }
`;
