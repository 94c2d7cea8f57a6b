// Hono on any runtime (docs/server.md, "Hono"): the agent API as one route of your app. On Node,
// serve the app with `@hono/node-server`: `serve({ fetch: app.fetch, port: 3000 })`.
import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The fetch handler of `createAgentFetchHandler` from `agent-chat/server`. */
type AgentFetchHandler = (request: Request, connection?: { remoteAddress?: string | undefined }) => Promise<Response>;

/** A Hono app serving `agent` at `/api/agent/*`; the socket's address feeds the per-client limits. */
export function createAgentApp(agent: AgentFetchHandler): Hono {
  const app = new Hono();
  app.all('/api/agent/*', (c) => agent(c.req.raw, { remoteAddress: getConnInfo(c).remote.address }));
  return app;
}
