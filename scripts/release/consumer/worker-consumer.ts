// Type-checked only (tsconfig.worker.json: ES2023 + WebWorker lib, no Node types, no DOM).
import { createAgentClient, isTerminalRunStatus, type ClientState, type ContextRef } from 'agent-chat/core';

const client = createAgentClient({ endpoint: '/api/agent', fetch: self.fetch.bind(self) });
client.subscribe((state: ClientState) => {
  const isDone: boolean = state.run !== null && isTerminalRunStatus(state.run.status);
  postMessage({ isDone, messages: state.messages.length });
});
const references: ContextRef[] = [{ ref: 'doc_1', title: 'Spec' }];
void client.send('hello', { contextRefs: references });
