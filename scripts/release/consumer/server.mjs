// A product's server built from the installed package only: the protocol at /api/agent from
// agent-chat/server with the offline scripted model, and the pages in public/ under a strict CSP.
// Prints `listening <url>` once ready; stops on SIGTERM.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentHandler, createRunEngine, createScriptedModel } from 'agent-chat/server';

const publicDir = fileURLToPath(new URL('./public/', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'";

const handler = createAgentHandler({
  engine: createRunEngine({ model: createScriptedModel() }),
  authenticate: () => ({ id: 'usr_package_test', displayName: 'Package test' }),
});

const server = createServer((request, response) => {
  handler(request, response, () => {
    const path = new URL(request.url ?? '/', 'http://consumer.invalid').pathname;
    const file = normalize(join(publicDir, path.endsWith('/') ? `${path}index.html` : path));
    const type = TYPES[extname(file)];
    if (!file.startsWith(publicDir) || type === undefined) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => response.writeHead(200, { 'Content-Type': type, 'Content-Security-Policy': CSP }).end(body),
      () => response.writeHead(404).end(),
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
process.once('SIGTERM', () => {
  void handler.close().then(() => {
    server.closeAllConnections();
    server.close();
  });
});
