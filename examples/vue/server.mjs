// The built page (dist/) and the agent API on one Node server: Express with the Node adapter,
// which reads the client's address from the socket. `npm run build`, then `npm start`
// (PORT, default 3000; HOST, default 127.0.0.1).
import {
  createAgentHandler,
  createAgentHttpServer,
  createDemoTools,
  createModelFromEnv,
  createRunEngine,
} from 'agent-chat/server';
import express from 'express';
import { fileURLToPath } from 'node:url';

// The model is the offline scripted one unless the environment names a real one
// (OPENAI_BASE_URL and AGENT_MODEL, or AGENT_MODEL_PROVIDER: docs/reference.md, "Environment variables").
const agent = createAgentHandler({
  engine: createRunEngine({ model: createModelFromEnv(process.env), tools: createDemoTools() }),
  // Your own session: who is signed in. Never trust anything the browser claims.
  authenticate: (req) => (req.headers.cookie?.includes('session=') ? { id: 'user-1', displayName: 'Ada' } : null),
});

const app = express();
// Middleware that calls next() outside /api/agent. No body parser or compression in front of it.
app.use((req, res, next) => agent(req, res, next));
app.use((req, res, next) => {
  res.cookie('session', 'demo', { httpOnly: true, sameSite: 'lax' }); // a stand-in for your login
  next();
});
app.use(express.static(fileURLToPath(new URL('dist', import.meta.url))));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// Node's server with the agent's header and request timeouts (docs/server.md, "Express").
createAgentHttpServer(app).listen(port, host, () => console.log(`open http://${host}:${port}/`));
