import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSseStream } from '../sse/parse-sse-stream.ts';
import { createHttpTransport } from './http-transport.ts';

/** The transport and the parser together over Node's real fetch and a loopback server. */
describe('http transport over real fetch', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function listen(
    handler: (request: { headers: IncomingHttpHeaders; body: string; url: string }, response: ServerResponse) => void,
  ): Promise<string> {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => handler({ headers: request.headers, body, url: request.url ?? '' }, response));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent`;
  }

  it('streams a recorded run through openStream and parseSseStream', async () => {
    const fixture = readFileSync(new URL('../sse/fixtures/protocol-run.sse', import.meta.url));
    const seen: IncomingHttpHeaders[] = [];
    const endpoint = await listen((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
      });
      // Cut inside a multi-byte character and inside a line to exercise real chunking.
      const cuts = [0, 301, 302, 700, fixture.length];
      const writeNext = (index: number): void => {
        if (index + 1 >= cuts.length) return void response.end();
        response.write(fixture.subarray(cuts[index], cuts[index + 1]), () => setImmediate(() => writeNext(index + 1)));
      };
      writeNext(0);
    });
    const transport = createHttpTransport({ endpoint, getIdentity: () => 'idn_8f2' });
    const controller = new AbortController();
    const response = await transport.openStream({
      path: '/runs/run_01H/events?after=0',
      lastEventId: '0',
      signal: controller.signal,
    });
    const ids: string[] = [];
    const comments: string[] = [];
    for await (const frame of parseSseStream(response.body as ReadableStream<Uint8Array>, {
      signal: controller.signal,
      onComment: (text) => comments.push(text),
    })) {
      ids.push(frame.lastEventId);
    }
    expect(ids).toStrictEqual(['1', '2', '3', '4', '5']);
    expect(comments).toStrictEqual(['open', 'hb 1795966815000']);
    expect([
      seen[0]?.accept,
      seen[0]?.['agent-protocol'],
      seen[0]?.['last-event-id'],
      seen[0]?.['x-agent-identity'],
    ]).toStrictEqual(['text/event-stream', '1', '0', 'idn_8f2']);
  });

  it('closes the connection when the caller aborts mid-stream', async () => {
    let closed: Promise<unknown> | undefined;
    const endpoint = await listen((_request, response) => {
      closed = once(response, 'close');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('id: 1\ndata: first\n\n');
    });
    const transport = createHttpTransport({ endpoint });
    const controller = new AbortController();
    const reason = new Error('watchdog');
    const response = await transport.openStream({ path: '/runs/run_1/events', signal: controller.signal });
    const data: string[] = [];
    const reading = (async () => {
      for await (const frame of parseSseStream(response.body as ReadableStream<Uint8Array>, {
        signal: controller.signal,
      })) {
        data.push(frame.data);
        controller.abort(reason);
      }
    })();
    await expect(reading).rejects.toBe(reason);
    await closed;
    expect(data).toStrictEqual(['first']);
  });

  it('retries a 503 with Retry-After: 0 sending the same bytes again', async () => {
    const received: Array<{ body: string; key: string | undefined }> = [];
    const endpoint = await listen((request, response) => {
      received.push({ body: request.body, key: request.headers['idempotency-key'] as string | undefined });
      if (received.length === 1) {
        response.writeHead(503, {
          'content-type': 'application/problem+json',
          'retry-after': '0',
          'x-request-id': 'req_1',
        });
        response.end(
          JSON.stringify({
            type: 'about:blank',
            title: 'Unavailable',
            status: 503,
            code: 'AGENT_UNAVAILABLE',
            requestId: 'req_1',
            retryable: true,
            retryAfterMs: 0,
            runId: null,
            details: {},
          }),
        );
        return;
      }
      response.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_2' });
      response.end('{"runId":"run_1"}');
    });
    const transport = createHttpTransport({ endpoint, random: () => 0 });
    const body = '{"input":{"content":[{"type":"text","text":"Grüße 👋"}]}}';
    const response = await transport.request<{ runId: string }>({
      method: 'POST',
      path: '/runs',
      body,
      idempotencyKey: 'key_1',
      attempts: 3,
    });
    expect([response.status, response.body, response.requestId]).toStrictEqual([201, { runId: 'run_1' }, 'req_2']);
    expect(received).toStrictEqual([
      { body, key: '"key_1"' },
      { body, key: '"key_1"' },
    ]);
  });
});
