// The strict-CSP page: one inline widget mounted from the script-tag build; `csp-monitor.js`
// counts violations. `window.agentChatDemo` exposes the mount for the e2e tests.
// A refused bundle leaves `window.AgentChat` undefined: say so instead of throwing.
if (window.AgentChat) {
  window.agentChatDemo = { inline: window.AgentChat.mount('#strict-chat', { endpoint: '/api/agent', persist: true }) };
} else {
  document.getElementById('strict-chat').textContent = 'The chat could not be loaded. Reload the page to try again.';
}
