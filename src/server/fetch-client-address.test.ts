import { afterEach, describe, expect, it } from 'vitest';
import { clientAddress } from '../../examples/nextjs/lib/client-address.ts';
import type { AgentFetchHandler, AgentFetchHandlerOptions } from './create-agent-fetch-handler.ts';
import { createAgentFetchHandler } from './create-agent-fetch-handler.ts';
import type { LogRecord } from './observability/structured-log.ts';
import { createScriptedTestEngine } from './test-support/manual-engine.ts';
import { freshKey } from './test-support/start-test-server.ts';

const handlers: AgentFetchHandler[] = [];
const bodies: ReadableStreamDefaultController<Uint8Array>[] = [];
afterEach(async () => {
  for (const body of bodies.splice(0)) body.error(new Error('test over'));
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** A fetch handler on the scripted engine whose log lines land in `lines`. */
function start(options: Partial<AgentFetchHandlerOptions>, lines: LogRecord[] = []): AgentFetchHandler {
  const handler = createAgentFetchHandler({
    engine: createScriptedTestEngine(),
    identityFor: (subject) => `idn_${subject.id}`,
    authenticate: (request) => {
      const user = request.headers.get('x-test-user');
      return user === null ? null : { id: user, displayName: user };
    },
    logLevel: 'warn',
    log: (record) => lines.push(record),
    ...options,
  });
  handlers.push(handler);
  return handler;
}

function bootstrap(user: string, headers: Record<string, string> = {}): Request {
  return new Request('http://agent.test/api/agent/v1/bootstrap', {
    headers: { 'x-test-user': user, 'x-agent-identity': `idn_${user}`, ...headers },
  });
}

/** A create whose body starts and then stalls until the test ends: it holds a body slot. */
function stalledCreate(user: string, forwardedFor: string): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      bodies.push(controller);
      controller.enqueue(new TextEncoder().encode('{"agentVersionId":'));
    },
  });
  return new Request('http://agent.test/api/agent/v1/runs', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: {
      'content-type': 'application/json',
      'x-test-user': user,
      'x-agent-identity': `idn_${user}`,
      'idempotency-key': freshKey(),
      'x-forwarded-for': forwardedFor,
    },
  } as RequestInit);
}

/** Waits until `condition` holds (expect.poll, every few ms, up to 10 s). */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 10_000, interval: 5 }).toBe(true);
}

const unnamed = (lines: LogRecord[]): LogRecord[] => lines.filter((line) => line.event === 'clients_unnamed');

describe('a fetch handler that cannot tell clients apart', () => {
  it('warns once, at its first request, naming the fix', async () => {
    const lines: LogRecord[] = [];
    const handler = start({}, lines);
    expect((await handler(bootstrap('ada'))).status).toBe(200);
    expect((await handler(bootstrap('bob'))).status).toBe(200);
    expect(unnamed(lines)).toEqual([expect.objectContaining({ level: 'warn' })]);
    expect(unnamed(lines)[0]?.['detail']).toMatch(/clientAddress/);
  });

  it('warns even with trustProxy, which needs an address to start from', async () => {
    const lines: LogRecord[] = [];
    const handler = start({ trustProxy: ['10.0.0.0/8'] }, lines);
    await handler(bootstrap('ada', { 'x-forwarded-for': '203.0.113.7' }));
    expect(unnamed(lines)).toHaveLength(1);
  });

  it('stays quiet with clientAddress, or with the address as the second argument', async () => {
    const lines: LogRecord[] = [];
    const named = start({ clientAddress: () => '203.0.113.7' }, lines);
    const given = start({}, lines);
    expect((await named(bootstrap('ada'))).status).toBe(200);
    expect((await given(bootstrap('ada'), { remoteAddress: '203.0.113.7' })).status).toBe(200);
    expect(unnamed(lines)).toEqual([]);
  });
});

describe('the Next.js example’s mount (examples/nextjs/lib/client-address.ts)', () => {
  it('holds one forwarded address to its share of bodies while another address is served', async () => {
    const lines: LogRecord[] = [];
    const handler = start({ clientAddress, edgeLimits: { maxBodiesPerClient: 2 } }, lines);
    const held = [handler(stalledCreate('m0', '203.0.113.7')), handler(stalledCreate('m1', '203.0.113.7'))];
    for (const answer of held) answer.catch(() => undefined);
    await waitUntil(() => handler.stats().bodies === 2, 'two bodies are held');
    // A client-written entry left of the one the proxy wrote changes nothing.
    const refused = await handler(stalledCreate('m2', '198.51.100.1, 203.0.113.7'));
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '5']);
    expect(await refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxBodiesPerClient', maxBodiesPerClient: 2 },
    });
    const other = handler(stalledCreate('olivia', '198.51.100.9'));
    other.catch(() => undefined);
    await waitUntil(() => handler.stats().bodies === 3, 'another address gets its body read');
    expect(unnamed(lines)).toEqual([]);
  });
});

describe('a client that leaves mid-body', () => {
  it('gets a bodiless 499 a host can write, not Response.error()', async () => {
    const handler = start({ clientAddress });
    const answer = handler(stalledCreate('ada', '198.51.100.7'));
    await waitUntil(() => handler.stats().bodies === 1, 'the body is being read');
    bodies.splice(0).forEach((body) => body.error(new Error('connection reset')));
    const response = await answer;
    expect([response.type, response.status, await response.text()]).toEqual(['default', 499, '']);
  });
});
