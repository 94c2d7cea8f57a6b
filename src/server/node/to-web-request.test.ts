import { afterEach, describe, expect, it } from 'vitest';
import { sendRawHttp } from '../../../test/support/raw-http.ts';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the Node adapter on what a Web Request cannot carry', () => {
  it('answers a TRACE (a method fetch forbids) 400 malformed_request, and goes on serving', async () => {
    server = await startTestServer({ engine: createScriptedTestEngine() });
    const answer = await sendRawHttp(
      server.port,
      'TRACE /api/agent/v1/bootstrap HTTP/1.1\r\nHost: x\r\nX-Test-User: alice\r\nX-Request-Id: req_trace.1\r\nConnection: close\r\n\r\n',
    );
    expect([answer.status, answer.headers['content-type'], answer.headers['x-request-id']]).toEqual([
      400,
      'application/problem+json; charset=utf-8',
      'req_trace.1',
    ]);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { reason: 'malformed_request' },
    });
    expect((await server.request('/bootstrap')).status).toBe(200);
  });
});
