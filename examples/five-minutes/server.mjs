// Your own page in five minutes (docs/reference.md): a static folder and the agent API on one
// Node http server. `node server.mjs`, then open http://127.0.0.1:3000/.
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createAgentHandler,
  createAgentHttpServer,
  createDemoTools,
  createModelFromEnv,
  createRunEngine,
} from 'agent-chat/server';
import { weatherTool } from './weather-tool.mjs';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css' };
// agent-chat.js and the sibling files it loads on first use (docs/embedding.md, "Sibling files"), from the package.
const SCRIPT_FILE = /^\/agent-chat[\w.-]*\.js$/;
const scriptsDir = dirname(fileURLToPath(import.meta.resolve('agent-chat/agent-chat.js')));

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
    // The model with the demo tools and your own; a model is offered only the tools you pass.
    engine: createRunEngine({ model: createModelFromEnv(env), tools: [...createDemoTools(), weatherTool] }),
    // Your own session: who is signed in. Never trust anything the browser claims.
    authenticate: (req) => (req.headers.cookie?.includes('session=') ? { id: 'user-1', displayName: 'Ada' } : null),
  });
  const server = createAgentHttpServer((req, res) => {
    agent(req, res, async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const isScript = SCRIPT_FILE.test(path);
      const file = isScript ? join(scriptsDir, path) : normalize(join(publicDir, path === '/' ? 'index.html' : path));
      if (!isScript && !file.startsWith(publicDir + sep)) return void res.writeHead(404).end();
      try {
        const body = await readFile(file);
        // A stand-in for your login: the page visit signs the browser in.
        res.setHeader('Set-Cookie', 'session=demo; Path=/; HttpOnly; SameSite=Lax');
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

// `node server.mjs [folder]`: the page from public/, or from the folder given (`npm start`: dist/ of `npm run build`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const folder = process.argv[2];
  const server = await startServer({
    port: Number(process.env.PORT ?? 3000),
    ...(folder && { publicDir: resolve(folder) }),
  });
  console.log(`open http://127.0.0.1:${server.address().port}/`);
}
