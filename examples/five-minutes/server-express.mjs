// The same page with Express: the agent handler is ordinary middleware (it calls next() outside
// /api/agent). No body parser or compression in front of it. `node server-express.mjs`.
import express from 'express';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAgentHandler, createAgentHttpServer, createDemoTools, createRunEngine } from 'agent-chat/server';
import { weatherTool } from './weather-tool.mjs';

/** Starts the page and the agent on `port`; resolves with the server once it listens. */
export async function startServer({ port = 3000, publicDir = fileURLToPath(new URL('public', import.meta.url)) } = {}) {
  const agent = createAgentHandler({
    engine: createRunEngine({ tools: [...createDemoTools(), weatherTool] }), // the scripted model, demo tools and yours
    authenticate: (req) => (req.headers.cookie?.includes('session=') ? { id: 'user-1', displayName: 'Ada' } : null),
  });
  const app = express();
  app.use((req, res, next) => agent(req, res, next));
  app.get('/agent-chat.js', (req, res) => res.sendFile(fileURLToPath(import.meta.resolve('agent-chat/agent-chat.js'))));
  app.use((req, res, next) => {
    res.cookie('session', 'demo', { httpOnly: true, sameSite: 'lax' }); // a stand-in for your login
    next();
  });
  app.use(express.static(publicDir));
  const server = createAgentHttpServer(app);
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startServer();
  console.log(`open http://127.0.0.1:${server.address().port}/`);
}
