import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawSocket, readRawResponse, sendRawHttp } from '../../../test/support/raw-http.ts';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, readSse, startTestServer } from '../test-support/start-test-server.ts';

let server: TestServer;
const errors: unknown[] = [];

beforeAll(async () => {
  server = await startTestServer({
    engine: createScriptedTestEngine(),
    onError: (error) => errors.push(error),
  });
});
afterAll(() => server.close());

/** A run created and streamed to its end on `target` (first, last, count): the server still fully serves. */
async function completeRun(target: TestServer): Promise<[string | undefined, string | undefined, number]> {
  const { runId } = await target.createRun('alice', 'Still there?');
  const { events } = await readSse(await target.request(`/runs/${runId}/events`));
  return [events[0]?.type, events.at(-1)?.type, events.length];
}

const FULL_RUN = ['RUN_STARTED', 'RUN_FINISHED', 9];

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

describe('requests that used to take the process down', () => {
  it('answers request targets `new URL` cannot parse with a 400 problem, then completes a run', async () => {
    for (const target of ['//[', 'http://x:99999/api/agent/v1/bootstrap', '//[::1', 'http://[zz]/api/agent/v1/runs']) {
      const answer = await sendRawHttp(
        server.port,
        `GET ${target} HTTP/1.1\r\nHost: x\r\nX-Request-Id: req_raw.1\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(answer.headers['x-request-id']).toBe('req_raw.1');
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        requestId: 'req_raw.1',
        retryable: false,
        details: { reason: 'malformed_target' },
      });
    }
    expect(await completeRun(server)).toEqual(FULL_RUN);
    expect(errors).toEqual([]);
  });

  it('answers bytes Node cannot parse with a 400/431 problem and keeps serving', async () => {
    const cases: { bytes: string; status: number; reason: string }[] = [
      {
        bytes: 'GET /api/agent/v1/bootstrap\x01 HTTP/1.1\r\nHost: x\r\n\r\n',
        status: 400,
        reason: 'malformed_request',
      },
      { bytes: 'NOT-HTTP\r\n\r\n', status: 400, reason: 'malformed_request' },
      { bytes: 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', status: 400, reason: 'malformed_request' },
      {
        bytes: 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
        status: 400,
        reason: 'malformed_request',
      },
      {
        bytes: `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        status: 431,
        reason: 'headers_too_large',
      },
    ];
    for (const { bytes, status, reason } of cases) {
      const answer = await sendRawHttp(server.port, bytes);
      expect([answer.status, answer.isClosed]).toEqual([status, true]);
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      const problem = JSON.parse(answer.body) as { code: string; requestId: string; details: { reason: string } };
      expect([problem.code, problem.details.reason]).toEqual(['VALIDATION_FAILED', reason]);
      expect(answer.headers['x-request-id']).toBe(problem.requestId);
    }
    expect(await completeRun(server)).toEqual(FULL_RUN);
  });

  it('refuses JSON nested deeper than 64 levels with 422 before anything recursive runs', async () => {
    const runBody = (metadata: string): string =>
      `{"agentVersionId":"agv_demo_1","input":{"content":[{"type":"text","text":"Hi"}]},"metadata":${metadata}}`;
    for (const body of [runBody(nested(10_000)), runBody(nested(100_000)), nested(65)]) {
      const response = await server.request('/runs', { rawBody: body, headers: { 'idempotency-key': freshKey() } });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        retryable: false,
        details: { reason: 'too_deep', maxDepth: 64 },
      });
    }
    // 64 levels pass the reader and the fingerprint; the route then refuses an array as the body.
    const within = await server.request('/runs', { rawBody: nested(64), headers: { 'idempotency-key': freshKey() } });
    expect(within.status).toBe(422);
    expect(((await within.json()) as { details: unknown }).details).toEqual({ field: 'body' });
    expect(errors).toEqual([]);
  });
});

describe('numbers no double can hold', () => {
  it('answers 1e999 with a 422 problem on /runs, /inputs and AG-UI, counted by each route’s rate', async () => {
    const strict = await startTestServer({
      engine: createScriptedTestEngine(),
      limits: { runsPerMinute: 3, inputsPerMinute: 2 },
      onError: (error) => errors.push(error),
    });
    try {
      const { runId } = await strict.createRun('alice', 'Hi');
      const targets = [
        {
          path: '/api/agent/v1/runs',
          body: '{"agentVersionId":"agv_demo_1","input":{"content":[{"type":"text","text":"Hi"}]},"n":1e999}',
          limit: 'runsPerMinute',
        },
        {
          path: `/api/agent/v1/runs/${runId}/inputs`,
          body: '{"content":[{"type":"text","text":"more"}],"n":-1e999}',
          limit: 'inputsPerMinute',
        },
        {
          path: '/api/agent/ag-ui',
          body: '{"threadId":"t1","runId":"r1","messages":[],"tools":[],"context":[],"state":{"n":1E400}}',
          limit: 'runsPerMinute',
        },
      ];
      const statuses: number[][] = [];
      for (const { path, body, limit } of targets) {
        const answers: number[] = [];
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const response = await fetch(`${strict.baseUrl}${path}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-test-user': path.endsWith('ag-ui') ? 'bob' : 'alice',
              ...(path.endsWith('ag-ui') ? {} : { 'x-agent-identity': await strict.identityOf('alice') }),
              'idempotency-key': freshKey(),
            },
            body,
          });
          answers.push(response.status);
          const problem = (await response.json()) as { code: string; details: Record<string, unknown> };
          if (response.status === 422) {
            expect(problem).toMatchObject({
              code: 'VALIDATION_FAILED',
              details: { reason: 'number_out_of_range' },
            });
          } else {
            expect(problem).toMatchObject({ code: 'RATE_LIMITED', details: { limit } });
          }
        }
        statuses.push(answers);
      }
      // alice's create used one of her 3 runs; bob's AG-UI has all 3.
      expect(statuses).toEqual([
        [422, 422, 429],
        [422, 422, 429],
        [422, 422, 422],
      ]);
      expect(errors).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('a client that goes away mid-request', () => {
  it('drops a body that is reset or closed half-way without reporting an error', async () => {
    const identity = await server.identityOf('alice');
    for (const ending of ['reset', 'close'] as const) {
      const socket = await openRawSocket(server.port);
      socket.write(
        [
          'POST /api/agent/v1/runs HTTP/1.1',
          'Host: x',
          'Content-Type: application/json',
          'Content-Length: 1000',
          'X-Test-User: alice',
          `X-Agent-Identity: ${identity}`,
          `Idempotency-Key: ${freshKey()}`,
          '',
          '{"agentVersionId":',
        ].join('\r\n'),
      );
      await waitUntil(() => server.handler.stats().requests === 1);
      if (ending === 'reset') socket.resetAndDestroy();
      else socket.end();
      await waitUntil(() => server.handler.stats().requests === 0);
    }
    // Let the handler's failure path run to its end before looking at what it reported.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toEqual([]);
    expect(await completeRun(server)).toEqual(FULL_RUN);
  });
});

describe('raw bytes on keep-alive', () => {
  it('keeps the connection usable after a 400 for an unparsable target', async () => {
    const socket = await openRawSocket(server.port);
    const first = readRawResponse(socket);
    socket.write('GET //[ HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await first).status).toBe(400);
    const second = readRawResponse(socket);
    socket.write('GET /api/agent/v1/bootstrap HTTP/1.1\r\nHost: x\r\nX-Test-User: alice\r\nConnection: close\r\n\r\n');
    const answer = await second;
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { protocol: { version: string } }).protocol.version).toBe('1.0');
  });
});

/** Waits until `condition` holds (expect.poll, every few ms, up to 4 s). */
async function waitUntil(condition: () => boolean): Promise<void> {
  await expect.poll(condition, { message: 'condition never held', timeout: 4_000, interval: 5 }).toBe(true);
}
