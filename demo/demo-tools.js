// The demo's browser tools: what a product page would mount with `AgentChat.mount(…, { tools })`.
// `page.read_selection` reads the text last selected on this page (read-only, runs at once);
// `cart.add` adds an item to the demo cart on this page (a write, so it asks for approval).
// The e2e tests may add tools and runner options before the page runs, through
// `window.agentChatDemoToolsForTests = { tools, runner }` (an init script); real pages have none.
window.createDemoBrowserTools = function createDemoBrowserTools(AgentChatTools, cartList) {
  const cart = [];
  // Typing the request into the chat moves the selection there, so keep the last one made on the page.
  let lastSelection = '';
  document.addEventListener('selectionchange', () => {
    const text = String(document.getSelection() ?? '');
    if (text.trim() !== '') lastSelection = text;
  });
  const wait = (ms, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new AgentChatTools.BusinessCancelled('Stopped before anything was added to the cart.'));
      });
    });
  const tools = {
    'page.read_selection': {
      title: 'Read the selection',
      description: 'Returns the text the user last selected on the page (empty when nothing was selected). Read-only.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      policy: 'allow',
      run: () => ({ text: lastSelection.slice(0, 2000) }),
    },
    'cart.add': {
      title: 'Add to cart',
      description: "Adds an item to the user's cart on this page. It changes the cart, so the user approves it first.",
      parameters: {
        type: 'object',
        properties: {
          sku: { type: 'string', minLength: 1, maxLength: 40 },
          quantity: { type: 'integer', minimum: 1, maximum: 99 },
        },
        required: ['sku', 'quantity'],
        additionalProperties: false,
      },
      policy: 'ask',
      run: async (args, { signal, progress }) => {
        progress('Checking stock…', 0.3);
        await wait(800, signal);
        if (cart.length >= 20) throw new AgentChatTools.BusinessFailure('The cart is full (20 items).');
        cart.push({ sku: args.sku, quantity: args.quantity });
        const item = document.createElement('li');
        item.textContent = `${args.quantity} × ${args.sku}`;
        cartList?.append(item);
        return { added: { sku: args.sku, quantity: args.quantity }, items: cart.length };
      },
    },
  };
  const forTests = window.agentChatDemoToolsForTests ?? {};
  return { tools: { ...tools, ...forTests.tools }, runner: forTests.runner ?? {} };
};
