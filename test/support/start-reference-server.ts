import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createAgentApp } from '../../examples/hono/agent-app.ts';
import { createRunEngine } from '../../src/server/agent-loop/create-run-engine.ts';
import type { AgentHandlerMembers, AgentServerOptions } from '../../src/server/agent-server-options.ts';
import { createDemoTools } from '../../src/server/tools/demo-tools.ts';
import { createAgentFetchHandler } from '../../src/server/create-agent-fetch-handler.ts';
import { createAgentHandler } from '../../src/server/create-agent-handler.ts';
import { createAgentHttpServer } from '../../src/server/http/create-agent-http-server.ts';
import { createScriptedModel } from '../../src/server/models/scripted-model.ts';
import type { EngineLimits } from '../../src/server/agent-loop/engine-options.ts';

/** A real reference server on a loopback port, for the client's integration tests. */
export interface ReferenceServer {
  readonly port: number;
  readonly handler: AgentHandlerMembers;
  /** Who the next requests are signed in as (the product's cookie, in effect). */
  signInAs(userId: string): void;
  close(): Promise<void>;
}

/**
 * How the reference server is mounted: `node` (the Node adapter in `createAgentHttpServer`, the
 * default) or `hono` (the fetch handler in the Hono app of examples/hono on `@hono/node-server`).
 * The loopback suite runs once per mount (vite.config.ts, projects `core` and `core-hono`).
 */
export const REFERENCE_MOUNT_VARIABLE = 'AGENT_CHAT_REFERENCE_MOUNT';

/**
 * Starts the handler (see {@link REFERENCE_MOUNT_VARIABLE}) with the scripted model (fast deltas, one event per delta) and the
 * demo tools on `127.0.0.1`, port 0. Identities are stable across instances, so a second server is the same
 * product after a restart, only without the first one's runs. `options` sets the handler's limits,
 * clock (e.g. a low rate limit, or a fake clock shared with the client under test),
 * `canUseExecutor` (browser tools on), its storage (e.g. one a test seeded), its attachment store and the engine's
 * limits (e.g. no model retries).
 */
export async function startReferenceServer(
  options: Pick<AgentServerOptions, 'limits' | 'clock' | 'canUseExecutor' | 'storage' | 'attachments'> & {
    engineLimits?: Partial<EngineLimits>;
  } = {},
): Promise<ReferenceServer> {
  const { engineLimits, ...handlerOptions } = options;
  let userId = 'user-1';
  const shared: AgentServerOptions = {
    ...handlerOptions,
    identityFor: (subject) => `idn_${subject.id}`,
    engine: createRunEngine({
      model: createScriptedModel({ delayMs: 2, slowDelayMs: 20, slowDurationMs: 60_000 }),
      tools: createDemoTools(),
      limits: { deltaFlushMs: 0, deltaFlushBytes: 1, ...engineLimits },
      log: () => undefined,
    }),
    onError: () => undefined,
  };
  const signedIn = () => ({ id: userId });
  let handler: AgentHandlerMembers;
  let server: Server;
  if (process.env[REFERENCE_MOUNT_VARIABLE] === 'hono') {
    const agent = createAgentFetchHandler({ ...shared, authenticate: signedIn });
    handler = agent;
    server = serve({ fetch: createAgentApp(agent).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
  } else {
    const agent = createAgentHandler({ ...shared, authenticate: signedIn });
    handler = agent;
    server = createAgentHttpServer(agent);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  return {
    port: (server.address() as AddressInfo).port,
    handler,
    signInAs(next) {
      userId = next;
    },
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
