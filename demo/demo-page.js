// The demo host page: mounts an inline widget (with the browser tools of demo-tools.js through
// the `tools` option, receipts kept in IndexedDB so a reload mid-tool is safe) and a launcher from the script-tag build, and
// wires the scenario and theme buttons. `window.agentChatDemo` exposes both mounts for the e2e tests.
// When the browser refused agent-chat.js (SRI mismatch, CSP, 404), `window.AgentChat` is missing:
// the page says so in place of the chat instead of throwing (docs/embedding.md shows the pattern).
if (window.AgentChat) startDemo(window.AgentChat);
else showChatUnavailable(document.getElementById('inline-chat'));

/** Shows a short note where the chat would be. */
function showChatUnavailable(container) {
  const note = document.createElement('p');
  note.className = 'chat-unavailable';
  note.setAttribute('role', 'status');
  note.textContent = 'The chat could not be loaded. Reload the page to try again.';
  container.replaceChildren(note);
}

function startDemo(AgentChat) {
  // Browser tools need agent-chat-tools.js; without it (refused, missing) the chat runs without them.
  const browserTools = window.AgentChatTools
    ? window.createDemoBrowserTools(window.AgentChatTools, document.getElementById('demo-cart'))
    : null;
  const inline = AgentChat.mount('#inline-chat', {
    endpoint: '/api/agent',
    persist: true,
    // What the user selected on this page goes with the message as its page context (the chip under it).
    getContext: () => Promise.resolve(readPageSelection()),
    effortPicker: true,
    ...(browserTools
      ? { tools: browserTools.tools, toolRunner: { receipts: 'indexeddb', ...browserTools.runner } }
      : {}),
  });
  const launcher = AgentChat.mount('#launcher', {
    endpoint: '/api/agent',
    mode: 'launcher',
    suggestions: ['What can you do?', '/tool', '/approval'],
  });
  window.agentChatDemo = { inline, launcher };
  document.getElementById('demo-status').textContent = `agent-chat ${AgentChat.version}`;
  wireButtons(inline, launcher);
}

/** The text selected on this page outside the chat, as a page context; null when nothing is selected. */
function readPageSelection() {
  const text = document.getSelection()?.toString().trim() ?? '';
  return text === '' ? null : { title: 'Selected on the demo page', text };
}

function wireButtons(inline, launcher) {
  for (const button of document.querySelectorAll('[data-scenario]')) {
    button.addEventListener('click', () => typeIntoComposer(inline.element, button.dataset.scenario));
  }
  for (const button of document.querySelectorAll('[data-theme]')) {
    button.addEventListener('click', () => {
      const theme = button.dataset.theme;
      inline.element.theme = theme;
      launcher.element.theme = theme;
      const isDark = theme === 'dark' || (theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
      document.documentElement.classList.toggle('dark', isDark);
    });
  }
}

/** Puts `text` into the widget's composer and focuses it, as if the user had typed it. */
function typeIntoComposer(element, text) {
  const textarea = element.shadowRoot?.querySelector('textarea') ?? findTextarea(element.shadowRoot);
  if (!textarea) return;
  textarea.value = text;
  textarea.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  textarea.focus();
}

function findTextarea(root) {
  if (!root) return null;
  for (const node of root.querySelectorAll('*')) {
    if (node.shadowRoot) {
      const found = node.shadowRoot.querySelector('textarea') ?? findTextarea(node.shadowRoot);
      if (found) return found;
    }
  }
  return null;
}
