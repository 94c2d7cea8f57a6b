import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { test, expect } from './support/fixtures.ts';
import { chat } from './support/chat.ts';
import { createAgentHandler, createRunEngine, type AgentHandler } from '../src/server/index.ts';

/** A page server of its own origin: the IIFE, a page and its script, under a CSP that lets it reach the API. */
function startPage(apiOriginOf: () => string): Promise<Server> {
  const page = (
    integrity: string,
    apiOrigin: string,
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>shop</title>
<script src="/agent-chat.js" integrity="${integrity}" crossorigin="anonymous" defer></script>
<script src="/page.js" defer></script></head><body data-endpoint="${apiOrigin}/api/agent"><div id="inline-chat"></div></body></html>`;
  const script = `window.agentChatDemo = { inline: AgentChat.mount('#inline-chat', {
  endpoint: document.body.dataset.endpoint,
  credentials: 'omit',
  headers: async () => ({ authorization: 'Bearer token-ada' }),
}) };`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const apiOrigin = apiOriginOf();
    void (async () => {
      const manifest = JSON.parse(await readFile('dist/manifest.json', 'utf8')) as {
        files: Record<string, { integrity: string }>;
      };
      if (req.url === '/agent-chat.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(await readFile('dist/agent-chat.js'));
      } else if (req.url === '/page.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
      } else {
        res
          .writeHead(200, {
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Security-Policy': `default-src 'self'; connect-src ${apiOrigin}; img-src 'none'`,
          })
          .end(page(manifest.files['agent-chat.js']?.integrity ?? '', apiOrigin));
      }
    })();
  });
  return listen(server);
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const originOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let api: Server;
let agent: AgentHandler;
let shop: Server;
let stranger: Server;
const seenAuthorization: string[] = [];

test.beforeAll(async () => {
  let apiOrigin = '';
  shop = await startPage(() => apiOrigin);
  stranger = await startPage(() => apiOrigin);
  agent = createAgentHandler({
    engine: createRunEngine(),
    authenticate: (req) => {
      seenAuthorization.push(String(req.headers.authorization));
      return req.headers.authorization === 'Bearer token-ada' ? { id: 'ada', displayName: 'Ada' } : null;
    },
    cors: { origins: [originOf(shop)], credentials: false, allowHeaders: ['authorization'] },
  });
  api = await listen(createServer((req, res) => agent(req, res)));
  apiOrigin = originOf(api);
});

test.afterAll(async () => {
  await agent.close();
  for (const server of [api, shop, stranger]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('a page on another origin talks to the API it lists, with a bearer token from the headers() hook', async ({
  page,
  pageErrors: _errors,
}) => {
  await page.goto(`${originOf(shop)}/`);
  const widget = chat(page);
  await widget.send('/echo hello from another origin');
  await expect(widget.assistantMessages.last()).toHaveText(/hello from another origin/);
  await widget.waitForIdle();
  expect(seenAuthorization.length).toBeGreaterThan(2);
  expect(new Set(seenAuthorization)).toEqual(new Set(['Bearer token-ada']));
});

test('a page on an origin the API does not list cannot read its answers and shows the failure', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') refused.push(message.text());
  });
  await page.goto(`${originOf(stranger)}/`);
  const widget = chat(page);
  await expect(widget.root.locator('[part="error"]')).toBeVisible();
  expect(refused.some((text) => /CORS|Access-Control-Allow-Origin/.test(text))).toBe(true);
});
