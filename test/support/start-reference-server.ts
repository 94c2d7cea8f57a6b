import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRunEngine } from '../../src/server/agent-loop/create-run-engine.ts';
import { createDemoTools } from '../../src/server/tools/demo-tools.ts';
import { createAgentHandler } from '../../src/server/create-agent-handler.ts';
import type { AgentHandler, AgentHandlerOptions } from '../../src/server/create-agent-handler.ts';
import { createAgentHttpServer } from '../../src/server/http/create-agent-http-server.ts';
import { createScriptedModel } from '../../src/server/models/scripted-model.ts';
import type { EngineLimits } from '../../src/server/agent-loop/engine-options.ts';

/** A real reference server on a loopback port, for the client's integration tests. */
export interface ReferenceServer {
  readonly port: number;
  readonly handler: AgentHandler;
  /** Who the next requests are signed in as (the product's cookie, in effect). */
  signInAs(userId: string): void;
  close(): Promise<void>;
}

/**
 * Starts `createAgentHandler` with the scripted model (fast deltas, one event per delta) and the
 * demo tools on `127.0.0.1`, port 0. Identities are stable across instances, so a second server is the same
 * product after a restart, only without the first one's runs. `options` sets the handler's limits,
 * clock (e.g. a low rate limit, or a fake clock shared with the client under test),
 * `canUseExecutor` (browser tools on), its storage (e.g. one a test seeded) and the engine's
 * limits (e.g. no model retries).
 */
export async function startReferenceServer(
  options: Pick<AgentHandlerOptions, 'limits' | 'clock' | 'canUseExecutor' | 'storage'> & {
    engineLimits?: Partial<EngineLimits>;
  } = {},
): Promise<ReferenceServer> {
  const { engineLimits, ...handlerOptions } = options;
  let userId = 'user-1';
  const handler = createAgentHandler({
    ...handlerOptions,
    authenticate: () => ({ id: userId }),
    identityFor: (subject) => `idn_${subject.id}`,
    engine: createRunEngine({
      model: createScriptedModel({ delayMs: 2, slowDelayMs: 20, slowDurationMs: 60_000 }),
      tools: createDemoTools(),
      limits: { deltaFlushMs: 0, deltaFlushBytes: 1, ...engineLimits },
      log: () => undefined,
    }),
    onError: () => undefined,
  });
  const server: Server = createAgentHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
