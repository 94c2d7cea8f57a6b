import { afterEach, describe, expect, it } from 'vitest';
import type { AgentFetchHandler, AgentFetchHandlerOptions } from './create-agent-fetch-handler.ts';
import { createAgentFetchHandler } from './create-agent-fetch-handler.ts';
import type { LogRecord } from './observability/structured-log.ts';
import { createScriptedTestEngine } from './test-support/manual-engine.ts';

const handlers: AgentFetchHandler[] = [];
afterEach(async () => {
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
