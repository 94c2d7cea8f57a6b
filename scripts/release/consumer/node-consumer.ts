// Type-checked only (tsconfig.node.json: ES2023 + Node types, no DOM lib, strict, skipLibCheck off).
import { createServer } from 'node:http';
import {
  AgentError,
  createAgentClient,
  PROTOCOL_VERSION,
  reduceRunEvents,
  type AgentClientHandle,
  type ClientState,
  type RunSnapshot,
} from 'agent-chat/core';
import {
  createAgentHandler,
  createRunEngine,
  createScriptedModel,
  type AgentHandler,
  type Subject,
  type ToolDefinition,
} from 'agent-chat/server';

const subject: Subject = { id: 'usr_1', displayName: 'Consumer' };
const handler: AgentHandler = createAgentHandler({
  engine: createRunEngine({ model: createScriptedModel() }),
  authenticate: () => subject,
});
createServer((request, response) => handler(request, response));

const client: AgentClientHandle = createAgentClient({ endpoint: 'http://127.0.0.1:4176/api/agent' });
const unsubscribe: () => void = client.subscribe((state: ClientState) => {
  const status: string | undefined = state.run?.status;
  const texts: string[] = state.messages.map((message) => message.content);
  console.log(status, texts, PROTOCOL_VERSION);
});
unsubscribe();
const snapshot: RunSnapshot = reduceRunEvents([]);
console.log(snapshot.status, AgentError.name);

const tools: ToolDefinition[] = [];
console.log(tools.length);

// @ts-expect-error the client cannot be created without an endpoint
createAgentClient({});

// @ts-expect-error deep imports into dist/ are not part of the published types
import type {} from 'agent-chat/dist/types/core/index.d.ts';
