// A React 19 page with the widget as a component: agent-chat/react defines <agent-chat> and owns
// its client (created, bootstrapped, kept across reloads in sessionStorage, disposed on unmount).
import { defineConversationsPanel } from 'agent-chat';
import { AgentChat } from 'agent-chat/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The header's "Conversations" button and its panel (the ESM build has it built in, off until defined).
defineConversationsPanel();

function App() {
  return (
    <main>
      <h1>My product</h1>
      <div className="assistant">
        <AgentChat
          id="assistant"
          endpoint="/api/agent"
          title="My product assistant"
          suggestions={['What can you do?', '/approval']}
          onSession={(event) => console.log('conversation', event.detail.sessionId)}
        />
      </div>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
