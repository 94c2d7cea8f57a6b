import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';

let server: TestServer;
const engine = createManualEngine();

beforeAll(async () => {
  server = await startTestServer({
    engine,
    limits: { maxRequestBytes: 2048, maxInputChars: 100 },
    canUseAgent: (s) => s.id !== 'mallory',
  });
});
afterAll(() => server.close());

async function problemOf(response: Response): Promise<{
  status: number;
  code: string;
  requestId: string;
  header: string | null;
  type: string | null;
  body: Record<string, unknown>;
}> {
  const body = (await response.json()) as Record<string, unknown>;
  return {
    status: response.status,
    code: body.code as string,
    requestId: body.requestId as string,
    header: response.headers.get('x-request-id'),
    type: response.headers.get('content-type'),
    body,
  };
}

const runBody = { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'Hi' }] } };

describe('cross-cutting request checks', () => {
  it('answers every failure as problem+json with a code and the request id (header and body)', async () => {
    const problem = await problemOf(
      await server.request('/nowhere', { headers: { 'x-request-id': 'bad id with spaces' } }),
    );
    expect(problem.status).toBe(404);
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.type).toBe('application/problem+json; charset=utf-8');
    expect(problem.requestId).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(problem.header).toBe(problem.requestId);
    expect(problem.body).toEqual({
      type: 'urn:agent-chat:problem:not-found',
      title: 'Not found',
      status: 404,
      code: 'NOT_FOUND',
      detail: 'No such endpoint.',
      requestId: problem.requestId,
      retryable: false,
      retryAfterMs: null,
      runId: null,
      details: {},
    });
  });

  const cases: {
    title: string;
    path: string;
    init: Parameters<TestServer['request']>[1];
    status: number;
    code: string;
  }[] = [
    { title: 'no subject', path: '/bootstrap', init: { user: null }, status: 401, code: 'UNAUTHENTICATED' },
    { title: 'canUseAgent false', path: '/bootstrap', init: { user: 'mallory' }, status: 403, code: 'FORBIDDEN' },
    {
      title: 'another protocol major',
      path: '/bootstrap',
      init: { headers: { 'agent-protocol': '2' } },
      status: 400,
      code: 'PROTOCOL_VERSION_UNSUPPORTED',
    },
    { title: 'wrong method', path: '/runs', init: { method: 'DELETE' }, status: 405, code: 'METHOD_NOT_ALLOWED' },
    { title: 'unknown route under v1', path: '/runs/run_x/nothing', init: {}, status: 404, code: 'NOT_FOUND' },
    {
      title: 'malformed JSON',
      path: '/runs',
      init: { rawBody: '{"agentVersionId":', headers: { 'idempotency-key': freshKey() } },
      status: 422,
      code: 'VALIDATION_FAILED',
    },
    {
      title: 'not JSON content',
      path: '/runs',
      init: {
        rawBody: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': freshKey() },
      },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    },
    {
      title: 'oversized body',
      path: '/runs',
      init: { rawBody: JSON.stringify({ pad: 'x'.repeat(5000) }), headers: { 'idempotency-key': freshKey() } },
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
    { title: 'missing key', path: '/runs', init: { body: runBody }, status: 400, code: 'IDEMPOTENCY_KEY_REQUIRED' },
    {
      title: 'short key',
      path: '/runs',
      init: { body: runBody, headers: { 'idempotency-key': 'abc' } },
      status: 400,
      code: 'IDEMPOTENCY_KEY_INVALID',
    },
    {
      title: 'low-entropy key',
      path: '/runs',
      init: { body: runBody, headers: { 'idempotency-key': 'aaaaaaaaaaaaaaaaaaaa' } },
      status: 400,
      code: 'IDEMPOTENCY_KEY_INVALID',
    },
    {
      title: 'key with bad characters',
      path: '/runs',
      init: { body: runBody, headers: { 'idempotency-key': 'key with spaces 1234' } },
      status: 400,
      code: 'IDEMPOTENCY_KEY_INVALID',
    },
    {
      title: 'POST without X-Agent-Identity',
      path: '/runs',
      init: { body: runBody, headers: { 'x-agent-identity': '' } },
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      title: 'identity changed',
      path: '/sessions',
      init: { headers: { 'x-agent-identity': 'idn_someone_else' } },
      status: 409,
      code: 'IDENTITY_CHANGED',
    },
    {
      title: 'non-text content',
      path: '/runs',
      init: {
        body: { ...runBody, input: { content: [{ type: 'image', url: 'x' }] } },
        headers: { 'idempotency-key': freshKey() },
      },
      status: 422,
      code: 'UNSUPPORTED_CONTENT',
    },
    {
      title: 'input over maxInputChars',
      path: '/runs',
      init: {
        body: { ...runBody, input: { content: [{ type: 'text', text: 'y'.repeat(101) }] } },
        headers: { 'idempotency-key': freshKey() },
      },
      status: 422,
      code: 'VALIDATION_FAILED',
    },
    {
      title: 'wrong agent version',
      path: '/runs',
      init: { body: { ...runBody, agentVersionId: 'agv_old' }, headers: { 'idempotency-key': freshKey() } },
      status: 409,
      code: 'AGENT_VERSION_MISMATCH',
    },
    {
      title: 'unknown model',
      path: '/runs',
      init: { body: { ...runBody, options: { modelId: 'gpt-nope' } }, headers: { 'idempotency-key': freshKey() } },
      status: 409,
      code: 'MODEL_UNAVAILABLE',
    },
    {
      title: 'a body that is not an object',
      path: '/runs',
      init: { rawBody: '[1,2]', headers: { 'idempotency-key': freshKey() } },
      status: 422,
      code: 'VALIDATION_FAILED',
    },
  ];
  for (const { title, path, init, status, code } of cases) {
    it(`${title} → ${status} ${code}`, async () => {
      const headers = { ...init?.headers };
      // An empty x-agent-identity in the table means "leave the header out".
      const response =
        headers['x-agent-identity'] === ''
          ? await fetch(`${server.baseUrl}/api/agent/v1${path}`, {
              method: 'POST',
              headers: { 'x-test-user': 'alice', 'content-type': 'application/json' },
              body: JSON.stringify(init?.body),
            })
          : await server.request(path, init);
      const problem = await problemOf(response);
      expect([problem.status, problem.code]).toEqual([status, code]);
    });
  }

  it('details the input limit and the active run', async () => {
    const tooLong = await problemOf(
      await server.request('/runs', {
        body: { ...runBody, input: { content: [{ type: 'text', text: 'y'.repeat(101) }] } },
        headers: { 'idempotency-key': freshKey() },
      }),
    );
    expect(tooLong.body.details).toEqual({ field: 'content', limit: 'maxInputChars', maxInputChars: 100, actual: 101 });
    const { runId, sessionId } = await server.createRun('alice');
    const second = await problemOf(
      await server.request('/runs', { body: { ...runBody, sessionId }, headers: { 'idempotency-key': freshKey() } }),
    );
    expect([second.status, second.code, second.body.activeRunId, second.body.details]).toEqual([
      409,
      'RUN_ALREADY_ACTIVE',
      runId,
      { activeRunId: runId },
    ]);
  });

  it('hides other subjects’ runs and sessions as 404', async () => {
    const { runId, sessionId } = await server.createRun('alice');
    for (const path of [
      `/runs/${runId}`,
      `/runs/${runId}/events`,
      `/sessions/${sessionId}`,
      `/sessions/${sessionId}/messages`,
    ]) {
      expect((await problemOf(await server.request(path, { user: 'bob' }))).code).toBe('NOT_FOUND');
    }
    expect((await problemOf(await server.request(`/runs/${runId}/cancel`, { user: 'bob', body: {} }))).status).toBe(
      404,
    );
    expect((await server.request(`/runs/${runId}`)).status).toBe(200);
  });

  it('calls next() outside its base path and answers 500 INTERNAL without leaking the error', async () => {
    const { createAgentHandler } = await import('../create-agent-handler.ts');
    const errors: unknown[] = [];
    const handler = createAgentHandler({
      engine,
      authenticate: () => {
        throw new Error('db password=hunter2');
      },
      onError: (error) => errors.push(error),
    });
    let nextCalls = 0;
    const { createServer } = await import('node:http');
    const http = createServer((req, res) =>
      handler(req, res, () => {
        nextCalls += 1;
        res.end('host');
      }),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    try {
      expect(await (await fetch(`${base}/elsewhere`)).text()).toBe('host');
      expect(nextCalls).toBe(1);
      const response = await fetch(`${base}/api/agent/v1/bootstrap`);
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text).code).toBe('INTERNAL');
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('at ');
      expect(errors).toHaveLength(1);
    } finally {
      await handler.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
