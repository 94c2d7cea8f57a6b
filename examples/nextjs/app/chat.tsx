'use client';
// The widget on a page: `agent-chat/react` in the browser only (it defines a custom element).
import dynamic from 'next/dynamic';

const AgentChat = dynamic(
  async () => {
    // A stand-in for your login: the page visit signs the browser in (authenticate reads it).
    document.cookie = 'session=demo; Path=/; SameSite=Lax';
    return (await import('agent-chat/react')).AgentChat;
  },
  { ssr: false },
);

export function Chat() {
  return (
    <AgentChat
      endpoint="/api/agent"
      title="My product assistant"
      suggestions={['What can you do?', '/approval']}
      style={{ display: 'block', height: '640px' }}
    />
  );
}
