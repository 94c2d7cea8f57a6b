import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import { createAgentHandler } from '../create-agent-handler.ts';

const SHOP = 'http://shop.example:8080';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    engine: createScriptedTestEngine(),
    cors: { origins: [SHOP], allowHeaders: ['authorization'], maxAgeSec: 120 },
  });
});
afterAll(() => server.close());

function preflight(origin: string): Promise<Response> {
  return fetch(`${server.baseUrl}/v1/runs`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers':
        'agent-protocol, x-agent-identity, idempotency-key, content-type, authorization',
    },
  });
}

describe('createAgentHandler cors', () => {
  it('answers a listed preflight 204 with the origin, credentials, the protocol methods and headers', async () => {
    const response = await preflight(SHOP);
    expect(response.status).toBe(204);
    expect(
      Object.fromEntries(
        [...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
      ),
    ).toEqual({
      'access-control-allow-origin': SHOP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
      'access-control-allow-headers':
        'content-type, agent-protocol, x-agent-identity, idempotency-key, last-event-id, x-request-id, accept-language, traceparent, x-tool-grant, x-attachment-name, authorization',
      'access-control-max-age': '120',
      vary: 'Origin',
    });
  });

  it('refuses a preflight from an unlisted origin with 403 and no CORS headers', async () => {
    const response = await preflight('http://evil.example');
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('FORBIDDEN');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives a listed origin its answer with the exposed protocol headers, and an unlisted one none', async () => {
    const listed = await server.request('/bootstrap', { headers: { origin: SHOP } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(listed.headers.get('access-control-expose-headers')).toBe(
      'x-request-id, idempotent-replayed, retry-after, location, x-run-last-seq',
    );
    expect(listed.headers.get('vary')).toBe('Origin');
    const unlisted = await server.request('/bootstrap', { headers: { origin: 'http://evil.example' } });
    expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
    const failed = await server.request('/bootstrap', { user: null, headers: { origin: SHOP } });
    expect(failed.status).toBe(401);
    expect(failed.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('refuses * and origins with a path at creation', () => {
    const engine = createScriptedTestEngine();
    const create = (origin: string) => () =>
      createAgentHandler({ engine, authenticate: () => null, cors: { origins: [origin] } });
    expect(create('*')).toThrow(
      'createAgentHandler: cors.origins must list origins like "https://shop.example" (never "*"), got "*".',
    );
    expect(create('https://shop.example/app')).toThrow(/got "https:\/\/shop.example\/app"/);
  });
});
