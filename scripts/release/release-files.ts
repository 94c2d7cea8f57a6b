/**
 * The script-tag files a static folder serves, as `npm run release:pack` copies them from `dist/`:
 * the IIFE, its locale packs, its launcher and its opt-in files (the conversations panel, the
 * tool cards, the turn actions, the attachment tray, the code highlighter, the browser tools runner). docs/release.md lists them; `release-files.test.ts` keeps it so.
 */
export const RELEASE_SCRIPT_FILES = [
  'agent-chat.js',
  'agent-chat.zh-CN.js',
  'agent-chat.launcher.js',
  'agent-chat.conversations.js',
  'agent-chat.tool-cards.js',
  'agent-chat.widgets.js',
  'agent-chat.turn-actions.js',
  'agent-chat.composer-extras.js',
  'agent-chat.highlight.js',
  'agent-chat-tools.js',
] as const;
