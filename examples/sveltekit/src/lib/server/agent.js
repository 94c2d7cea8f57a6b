import { createAgentFetchHandler, createDemoTools, createModelFromEnv, createRunEngine } from 'agent-chat/server';

/**
 * The agent's fetch handler, one per server process. The model is the offline scripted one unless
 * the environment names a real one (docs/reference.md, "Environment variables").
 */
export const agent = createAgentFetchHandler({
  engine: createRunEngine({ model: createModelFromEnv(process.env), tools: createDemoTools() }),
  // Your own session: who is signed in. Never trust anything the browser claims.
  authenticate: (request) =>
    request.headers.get('cookie')?.includes('session=') ? { id: 'user-1', displayName: 'Ada' } : null,
});
