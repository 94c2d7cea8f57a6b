// The conversations demo: the widget mounted from the script-tag build (persisted, so a reload
// shows the same conversation) and, placed beside it by the page, the panel over the same client
// (so the widget's own header sheet is turned off). agent-chat.js loads the panel's sibling file
// agent-chat.conversations.js with the integrity it carries. `window.agentChatDemo` exposes both
// for the e2e tests.
const panel = document.querySelector('agent-chat-conversations');
const failed = () => (panel.textContent = 'The chat could not be loaded. Reload the page to try again.');
if (window.AgentChat) {
  const chat = window.AgentChat.mount('#conversations-chat', {
    endpoint: '/api/agent',
    persist: true,
    conversations: false,
  });
  window.AgentChat.loadConversations().then(() => {
    panel.client = chat.client;
    // After a switch or a new conversation the panel asks to close; here it stays, and the chat gets focus.
    panel.addEventListener('agent-chat-conversations-close', () => chat.element.focus());
    window.agentChatDemo = { chat, panel };
  }, failed);
} else {
  failed();
}
