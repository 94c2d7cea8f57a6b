/**
 * How `<agent-chat>` gets the conversations panel when `<agent-chat-conversations>` is not defined
 * yet: the script tag's entry provides a loader of its sibling file `agent-chat.conversations.js`
 * (embed/siblings.ts), so the header offers the sheet at once and the file loads on first open.
 */
let loadPanel: (() => Promise<unknown>) | undefined;

/** Makes `load` (which defines `<agent-chat-conversations>` once it resolves) the way every `<agent-chat>` gets the panel. */
export function provideConversationsPanel(load: () => Promise<unknown>): void {
  loadPanel = load;
}

/** The loader given to {@link provideConversationsPanel}, or `undefined` (the ESM build: the host defines the panel). */
export function findConversationsPanelLoader(): (() => Promise<unknown>) | undefined {
  return loadPanel;
}
