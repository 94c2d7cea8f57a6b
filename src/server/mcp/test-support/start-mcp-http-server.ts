import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A Streamable HTTP MCP server built with the SDK's own server transport, one `McpServer` per session. */
export interface McpHttpTestServer {
  url: string;
  /** The `authorization` header of every request, in order. */
  authorizations: (string | undefined)[];
  /** Runs `change` on every session's server (e.g. register or remove a tool: the SDK then sends `tools/list_changed`). */
  changeTools(change: (server: McpServer) => void): void;
  /** Stops answering: closes the listener and every connection (a server that died). */
  stop(): Promise<void>;
  /** Listens again on the same port with fresh sessions (the server came back). */
  restart(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 (port 0, or `port`); `setup` registers its tools on each new
 * session's `McpServer`, and `changeTools` reaches every live one.
 */
export async function startMcpHttpServer(setup: (server: McpServer) => void): Promise<McpHttpTestServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const changes: ((server: McpServer) => void)[] = [];
  const authorizations: (string | undefined)[] = [];
  let http: Server;
  let port = 0;

  const listen = async (): Promise<void> => {
    http = createServer((req: IncomingMessage, res) => {
      authorizations.push(req.headers.authorization);
      const sessionId = req.headers['mcp-session-id'];
      const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (known !== undefined) {
        void known.transport.handleRequest(req, res);
        return;
      }
      const server = new McpServer({ name: 'shop', version: '1.0.0' });
      setup(server);
      for (const change of changes) change(server);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server });
        },
      });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  };
  await listen();

  const stop = async (): Promise<void> => {
    await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => undefined)));
    sessions.clear();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    changeTools(change) {
      changes.push(change);
      for (const { server } of sessions.values()) change(server);
    },
    stop,
    restart: listen,
  };
}
