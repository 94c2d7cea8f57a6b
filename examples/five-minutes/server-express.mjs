// The same page with Express: the agent handler is ordinary middleware (it calls next() outside
// /api/agent). No body parser or compression in front of it. `node server-express.mjs`.
import express from 'express';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createAgentHandler,
  createAgentHttpServer,
  createDemoTools,
  createModelFromEnv,
  createRunEngine,
} from 'agent-chat/server';
import { weatherTool } from './weather-tool.mjs';

/**
 * Starts the page and the agent on `port`; resolves with the server once it listens. The model is
 * the offline scripted one unless `env` names a real one (`OPENAI_BASE_URL` and `AGENT_MODEL`, or
 * `AGENT_MODEL_PROVIDER`: docs/reference.md, "Environment variables").
 */
export async function startServer({
  port = 3000,
  publicDir = fileURLToPath(new URL('public', import.meta.url)),
  env = process.env,
} = {}) {
  const agent = createAgentHandler({
    engine: createRunEngine({ model: createModelFromEnv(env), tools: [...createDemoTools(), weatherTool] }),
    authenticate: (req) => (req.headers.cookie?.includes('session=') ? { id: 'user-1', displayName: 'Ada' } : null),
  });
  const app = express();
  app.use((req, res, next) => agent(req, res, next));
  // agent-chat.js and the sibling files it loads on first use, from the package.
  const scriptsDir = dirname(fileURLToPath(import.meta.resolve('agent-chat/agent-chat.js')));
  app.get(/^\/agent-chat[\w.-]*\.js$/, (req, res) => res.sendFile(join(scriptsDir, req.path)));
  app.use((req, res, next) => {
    res.cookie('session', 'demo', { httpOnly: true, sameSite: 'lax' }); // a stand-in for your login
    next();
  });
  app.use(express.static(publicDir));
  const server = createAgentHttpServer(app);
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

// `node server-express.mjs [folder]`: the page from public/, or from the folder given (`npm start`: dist/ of `npm run build`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const folder = process.argv[2];
  const server = await startServer({
    port: Number(process.env.PORT ?? 3000),
    ...(folder && { publicDir: resolve(folder) }),
  });
  console.log(`open http://127.0.0.1:${server.address().port}/`);
}
