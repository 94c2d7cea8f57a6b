// A React 19 page using agent-chat/react (built by Vite from the installed packages only).
import { createAgentClient } from 'agent-chat/core';
import { AgentChat } from 'agent-chat/react';
import { createElement, useEffect, useState, version } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const [client, setClient] = useState(null);
  const [sent, setSent] = useState([]);
  useEffect(() => {
    const created = createAgentClient({ endpoint: '/api/agent' });
    setClient(created);
    void created.bootstrap();
    return () => created.dispose();
  }, []);
  return createElement(
    'main',
    { 'data-react-version': version },
    client === null
      ? null
      : createElement(AgentChat, {
          client,
          theme: 'dark',
          onSend: (event) => setSent((texts) => [...texts, event.detail.text]),
        }),
    createElement('output', { id: 'sent' }, sent.join('\n')),
  );
}

createRoot(document.getElementById('root')).render(createElement(App));
