// Mounts the widget, or says in its place that it could not load (SRI mismatch, CSP, 404).
if (window.AgentChat) {
  const chat = window.AgentChat.mount('#assistant', {
    endpoint: '/api/agent',
    title: 'My product assistant',
    suggestions: ['What can you do?', '/tool'],
  });
  chat.on('agent-chat-session', ({ sessionId }) => console.log('conversation', sessionId));
} else {
  document.querySelector('#assistant').textContent = 'The chat could not be loaded. Reload the page to try again.';
}
