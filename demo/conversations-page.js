// The conversations demo: the widget mounted from the script-tag build (persisted, so a reload
// shows the same conversation) and, placed beside it by the page, the panel from
// agent-chat.conversations.js over the same client (so the widget's own header sheet is turned
// off). `window.agentChatDemo` exposes both for the e2e tests.
const panel = document.querySelector('agent-chat-conversations');
if (window.AgentChat && window.AgentChatConversations) {
  const chat = window.AgentChat.mount('#conversations-chat', {
    endpoint: '/api/agent',
    persist: true,
    conversations: false,
  });
  panel.client = chat.client;
  // After a switch or a new conversation the panel asks to close; here it stays, and the chat gets focus.
  panel.addEventListener('agent-chat-conversations-close', () => chat.element.focus());
  window.agentChatDemo = { chat, panel };
} else {
  panel.textContent = 'The chat could not be loaded. Reload the page to try again.';
}
