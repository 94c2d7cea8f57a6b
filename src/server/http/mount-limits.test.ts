import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentApp } from '../../../examples/hono/agent-app.ts';
import { clientAddress } from '../../../examples/nextjs/lib/client-address.ts';
import type { Answer } from '../../../test/support/requests-from.ts';
import { openFrom, requestFrom } from '../../../test/support/requests-from.ts';
import { createRunEngine } from '../agent-loop/create-run-engine.ts';
import type { AgentHandlerMembers, AgentServerOptions } from '../agent-server-options.ts';
import { createAgentFetchHandler } from '../create-agent-fetch-handler.ts';
import { createAgentHandler } from '../create-agent-handler.ts';
import { createScriptedModel } from '../models/scripted-model.ts';
import { freshKey } from '../test-support/start-test-server.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { createAgentHttpServer } from './create-agent-http-server.ts';

// Every 127.x.y.z address is loopback on Linux: each test client is its own network client.
const MALLORY = '127.0.0.2';
const ORDINARY = '127.0.0.4';

interface MountedAgent {
  port: number;
  handler: AgentHandlerMembers;
  close(): Promise<void>;
}

type Mount = (options: Pick<AgentServerOptions, 'edgeLimits'>) => Promise<MountedAgent>;

const sockets: Socket[] = [];
const mounted: MountedAgent[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(mounted.splice(0).map((agent) => agent.close()));
});

/** The options every mount shares: the real engine with the scripted model, users from `x-test-user`. */
function sharedOptions(options: Pick<AgentServerOptions, 'edgeLimits'>): Omit<AgentServerOptions, 'authenticate'> {
  return {
    ...options,
    identityFor: (subject) => `idn_${subject.id}`,
    engine: createRunEngine({
      model: createScriptedModel({ delayMs: 1 }),
      tools: createDemoTools({ stepMs: 1 }),
      limits: { retryBaseMs: 1, deltaFlushMs: 5 },
      log: () => undefined,
    }),
    onError: () => undefined,
  };
}

const authenticate = (user: string | null): { id: string } | null => (user === null ? null : { id: user });

async function listening(server: Server, handler: AgentHandlerMembers): Promise<MountedAgent> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
  const agent: MountedAgent = {
    port: (server.address() as AddressInfo).port,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  mounted.push(agent);
  return agent;
}

/** Every mount the docs show (docs/server.md): the Node adapter, Hono, and a Next.js route handler. */
const MOUNTS: [string, Mount][] = [
  [
    'Node adapter',
    async (options) => {
      const handler = createAgentHandler({
        ...sharedOptions(options),
        authenticate: (req) => authenticate((req.headers['x-test-user'] as string | undefined) ?? null),
      });
      const server = createAgentHttpServer(handler);
      server.listen(0, '127.0.0.1');
      return listening(server, handler);
    },
  ],
  [
    'Hono (examples/hono)',
    async (options) => {
      const handler = createAgentFetchHandler({
        ...sharedOptions(options),
        authenticate: (request) => authenticate(request.headers.get('x-test-user')),
      });
      const app = createAgentApp(handler);
      return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server, handler);
    },
  ],
  [
    'Next.js route handler (examples/nextjs)',
    async (options) => {
      const handler = createAgentFetchHandler({
        ...sharedOptions(options),
        authenticate: (request) => authenticate(request.headers.get('x-test-user')),
        clientAddress,
      });
      // The platform's proxy appends the socket's address to X-Forwarded-For; the route handler
      // itself sees only the Request, as `export const POST = (request) => agent(request)` does.
      const proxy = (request: Request, env: { incoming: Pick<IncomingMessage, 'socket'> }): Promise<Response> => {
        const headers = new Headers(request.headers);
        const forwarded = [headers.get('x-forwarded-for'), env.incoming.socket.remoteAddress].filter(Boolean);
        headers.set('x-forwarded-for', forwarded.join(', '));
        const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
        return handler(
          new Request(request.url, {
            method: request.method,
            headers,
            ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
          } as RequestInit),
        );
      };
      return listening(serve({ fetch: proxy, port: 0, hostname: '127.0.0.1' }) as Server, handler);
    },
  ],
];

const createBody = (text: string): unknown => ({
  agentVersionId: 'agv_demo_1',
  input: { content: [{ type: 'text', text }] },
});

const limitOf = (answer: Answer): unknown =>
  (JSON.parse(answer.body) as { details?: { limit?: unknown } }).details?.limit;

describe.each(MOUNTS)('limits per network client on the %s', (_name, mount) => {
  it('holds one client to its share of live runs (429) while another client runs', async () => {
    const agent = await mount({ edgeLimits: { maxLiveRunsPerClient: 1 } });
    const create = (address: string, user: string): Promise<Answer> =>
      requestFrom(agent, address, { user, path: '/runs', body: createBody('/slow') });
    const first = await create(MALLORY, 'm1');
    const second = await create(MALLORY, 'm2');
    expect([first.status, second.status, limitOf(second), second.headers['retry-after']]).toEqual([
      201,
      429,
      'maxLiveRunsPerClient',
      '5',
    ]);
    expect((await create(ORDINARY, 'olivia')).status).toBe(201);
  });

  it('holds one client’s slow bodies to its share (429) while another client is served', async () => {
    const agent = await mount({ edgeLimits: { maxBodiesPerClient: 2 } });
    for (let index = 0; index < 2; index += 1) {
      const socket = await openFrom(agent, MALLORY, sockets);
      socket.write(
        [
          'POST /api/agent/v1/runs HTTP/1.1',
          'Host: x',
          'Content-Type: application/json',
          'Content-Length: 1000',
          `X-Test-User: m${index}`,
          `X-Agent-Identity: idn_m${index}`,
          `Idempotency-Key: ${freshKey()}`,
          '',
          '{"agentVersionId":',
        ].join('\r\n'),
      );
    }
    await expect.poll(() => agent.handler.stats().bodies, { timeout: 10_000 }).toBe(2);
    const refused = await requestFrom(agent, MALLORY, { user: 'm9', path: '/runs', body: createBody('Hi') });
    expect([refused.status, limitOf(refused)]).toEqual([429, 'maxBodiesPerClient']);
    expect((await requestFrom(agent, ORDINARY, { user: 'olivia', path: '/runs', body: createBody('Hi') })).status).toBe(
      201,
    );
  });

  it('lets a newcomer run while another client’s runs wait for approvals', async () => {
    const agent = await mount({ edgeLimits: { maxLiveRuns: 2, newClientRunReserve: 0 } });
    for (const user of ['m1', 'm2']) {
      const waiting = await requestFrom(agent, MALLORY, { user, path: '/runs', body: createBody('/approval') });
      expect(waiting.status).toBe(201);
    }
    await expect.poll(() => agent.handler.stats().parkedRuns, { timeout: 10_000 }).toBe(2);
    const newcomer = await requestFrom(agent, ORDINARY, { user: 'olivia', path: '/runs', body: createBody('Hi') });
    expect(newcomer.status).toBe(201);
  });
});
