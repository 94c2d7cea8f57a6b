// The built page (dist/) and the agent API on one Node server: Hono with the fetch handler.
// `npm run build`, then `npm start` (PORT, default 3000; HOST, default 127.0.0.1).
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import {
  createAgentFetchHandler,
  createAgentHttpServer,
  createDemoTools,
  createModelFromEnv,
  createRunEngine,
} from 'agent-chat/server';
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { fileURLToPath } from 'node:url';

// The model is the offline scripted one unless the environment names a real one
// (OPENAI_BASE_URL and AGENT_MODEL, or AGENT_MODEL_PROVIDER: docs/reference.md, "Environment variables").
const agent = createAgentFetchHandler({
  engine: createRunEngine({ model: createModelFromEnv(process.env), tools: createDemoTools() }),
  // Your own session: who is signed in. Never trust anything the browser claims.
  authenticate: (request) =>
    request.headers.get('cookie')?.includes('session=') ? { id: 'user-1', displayName: 'Ada' } : null,
});

const app = new Hono();
// The socket's address feeds the per-client limits (docs/server.md, "Hono").
app.all('/api/agent/*', (c) => agent(c.req.raw, { remoteAddress: getConnInfo(c).remote.address }));
app.use(async (c, next) => {
  setCookie(c, 'session', 'demo', { path: '/', httpOnly: true, sameSite: 'Lax' }); // a stand-in for your login
  await next();
});
app.use(serveStatic({ root: fileURLToPath(new URL('dist', import.meta.url)) }));

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
serve(
  {
    fetch: app.fetch,
    port,
    hostname,
    // Node's server with the agent's header and request timeouts (docs/server.md, "What the Node adapter adds").
    createServer: (_options, listener) => createAgentHttpServer(listener),
  },
  () => console.log(`open http://${hostname}:${port}/`),
);
