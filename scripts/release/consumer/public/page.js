// Mounts the script-tag build the way a product page does: no inline script, nothing but the global.
window.mounted = window.AgentChat.mount('#assistant', { endpoint: '/api/agent', theme: 'light' });
