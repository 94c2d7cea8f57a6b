// Plain Node, no DOM: starts the installed reference server and talks to it with the installed core.
// Prints one JSON line of facts; scripts/release/test-package.ts asserts them.
import { createServer } from 'node:http';
import { createAgentClient, PROTOCOL_VERSION } from 'agent-chat/core';
import { createAgentHandler, createRunEngine, createScriptedModel } from 'agent-chat/server';

const handler = createAgentHandler({
  engine: createRunEngine({ model: createScriptedModel() }),
  authenticate: () => ({ id: 'usr_node_consumer', displayName: 'Node consumer' }),
});
const server = createServer((request, response) => handler(request, response));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = createAgentClient({ endpoint: `http://127.0.0.1:${server.address().port}/api/agent` });

const finished = new Promise((resolve) => {
  client.subscribe((state) => {
    if (state.run?.status === 'completed') resolve(state);
  });
});
const bootstrap = await client.bootstrap();
await client.send('/echo hello from plain Node');
const state = await finished;
client.dispose();
await handler.close();
server.close();

console.log(
  JSON.stringify({
    hasDom: ['window', 'document', 'HTMLElement', 'customElements'].filter((name) => name in globalThis),
    protocolVersion: PROTOCOL_VERSION,
    bootstrapProtocol: bootstrap.protocol.version,
    messages: state.messages.map((message) => [message.role, message.content]),
  }),
);
