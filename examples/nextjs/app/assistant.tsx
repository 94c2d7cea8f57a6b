// The widget (loaded by ./chat.tsx in the browser only). Importing `agent-chat/react` defines
// <agent-chat>; `defineConversationsPanel()` defines the conversations panel, so the header shows
// the Conversations button (the script tag loads the panel by itself, ESM pages define it).
import { defineConversationsPanel } from 'agent-chat';
import { AgentChat } from 'agent-chat/react';

defineConversationsPanel();

export function Assistant() {
  return (
    <AgentChat
      endpoint="/api/agent"
      title="My product assistant"
      suggestions={['What can you do?', '/approval']}
      // The element lays itself out (a column: header, transcript, composer); set its height only.
      style={{ height: '640px' }}
    />
  );
}
