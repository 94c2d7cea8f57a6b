// The strict-CSP page: one inline widget mounted from the script-tag build, with the demo's
// browser tools from the second script through the `tools` option (receipts in memory); `csp-monitor.js` counts violations. `window.agentChatDemo` exposes the mount for the e2e tests.
// A refused bundle leaves `window.AgentChat` undefined: say so instead of throwing.
if (window.AgentChat) {
  const browserTools = window.AgentChatTools ? window.createDemoBrowserTools(window.AgentChatTools, null) : null;
  const inline = window.AgentChat.mount('#strict-chat', {
    endpoint: '/api/agent',
    persist: true,
    ...(browserTools ? { tools: browserTools.tools, toolRunner: browserTools.runner } : {}),
  });
  window.agentChatDemo = { inline };
} else {
  document.getElementById('strict-chat').textContent = 'The chat could not be loaded. Reload the page to try again.';
}
