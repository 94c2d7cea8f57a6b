// The ESM page: imports `mount` from the ESM build (bare imports resolved by the page's import map).
import { mount } from '/esm/index.js';

const mounted = mount('#esm-chat', { endpoint: '/api/agent' });
window.agentChatDemo = { inline: mounted };
