// The strict-CSP page: one inline widget mounted from the script-tag build; `csp-monitor.js`
// counts violations. `window.agentChatDemo` exposes the mount for the e2e tests.
const mounted = window.AgentChat.mount('#strict-chat', { endpoint: '/api/agent', persist: true });
window.agentChatDemo = { inline: mounted };
