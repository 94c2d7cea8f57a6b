import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_PAGE_HEADERS } from '../demo/serve-demo.ts';
import type { Limits, ModelInfo } from '../src/core/protocol.ts';
import type { AgentHandler, AgentHandlerOptions } from '../src/server/create-agent-handler.ts';
import { createAgentHandler } from '../src/server/create-agent-handler.ts';
import type { AgentHttpServerOptions } from '../src/server/http/create-agent-http-server.ts';
import { createAgentHttpServer } from '../src/server/http/create-agent-http-server.ts';
import type { ObservabilityOptions } from '../src/server/observability/create-observability.ts';
import type { RunEngine, Subject } from '../src/server/runs/run-handle.ts';

/** The policy of the plain status page: no script, style or frame at all. */
const STATUS_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The demo login cookie: a random demo user per browser, set on the first page visit. */
export const DEMO_COOKIE = 'agent_chat_demo';

/** Options of {@link createDemoServer}. */
export interface DemoServerOptions {
  /** Port to listen on; 0 picks a free one. */
  port: number;
  host: string;
  engine: RunEngine;
  /** Overrides of the handler's published limits (default: none, the shipped ones). */
  limits?: Partial<Limits>;
  /** The models bootstrap lists (default: the handler's, the scripted model). */
  models?: ModelInfo[];
  /** Serves pages and assets; resolves false when it has nothing for the request. */
  staticHandler?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /** Socket-level limits (header and request timeouts). Default: the hardened defaults. */
  http?: AgentHttpServerOptions;
  /** Where the handler reports unexpected errors. Default `console.error`. */
  onError?: AgentHandlerOptions['onError'];
  /** Metrics, probes and logs (docs/operations.md). Default: the handler's (all off, logs at `warn`). */
  observability?: ObservabilityOptions;
  /** Where the handler keeps everything, its files, its identity secret and its lease time (docs/server.md, "Storage"). */
  storage?: Pick<AgentHandlerOptions, 'storage' | 'attachments' | 'identitySecret' | 'leaseTtlMs'>;
}

/** A listening demo server. */
export interface DemoServer {
  /** `http://host:port` with the real port. */
  url: string;
  server: Server;
  handler: AgentHandler;
  close(): Promise<void>;
}

/**
 * Starts the demo: the protocol handler at `/api/agent` (browser tools on, every executor of the
 * demo user allowed), a demo login (an HttpOnly, SameSite=Lax cookie naming a random demo user,
 * set on the first page visit; the handler's `authenticate` reads it), the static pages when a `staticHandler` is given, and otherwise a plain status page
 * at `/`.
 */
export async function createDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const handler = createAgentHandler({
    engine: options.engine,
    authenticate: (req) => readDemoUser(req),
    // Browser tools on: the demo trusts every browser and tab its demo user signs in with.
    canUseExecutor: () => true,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.models === undefined ? {} : { models: options.models }),
    ...options.observability,
    ...options.storage,
  });
  const server = createAgentHttpServer((req, res) => {
    handler(req, res, () => {
      if (readDemoUser(req) === null) {
        res.setHeader(
          'Set-Cookie',
          `${DEMO_COOKIE}=demo_${randomBytes(12).toString('base64url')}; Path=/; HttpOnly; SameSite=Lax`,
        );
      }
      void servePage(req, res, options.staticHandler).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal error');
      });
    });
  }, options.http);
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  return {
    url,
    server,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readDemoUser(req: IncomingMessage): Subject | null {
  const cookies = req.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === DEMO_COOKIE && value !== undefined && /^demo_[A-Za-z0-9_-]{8,64}$/.test(value)) {
      return { id: value, displayName: 'Demo user' };
    }
  }
  return null;
}

async function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  staticHandler: DemoServerOptions['staticHandler'],
): Promise<void> {
  if (staticHandler !== undefined && (await staticHandler(req, res))) return;
  const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
  if (path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not found');
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    ...DEMO_PAGE_HEADERS,
    'Content-Security-Policy': STATUS_PAGE_CSP,
  });
  res.end(
    [
      '<!doctype html><html lang="en"><meta charset="utf-8"><title>agent-chat</title>',
      '<h1>agent-chat reference server</h1>',
      '<p>The protocol is served at <a href="/api/agent/v1/bootstrap"><code>/api/agent/v1/bootstrap</code></a>.</p>',
      '</html>',
    ].join('\n'),
  );
}
