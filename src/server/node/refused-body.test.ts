import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRawResponse } from '../../../test/support/raw-http.ts';
import { createMemoryAttachmentStore } from '../attachments/memory-attachment-store.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';

// A body refused before its end is answered `413` with `Connection: close` while the client is
// still sending. Without a lingering close the server's close with unread input resets the
// connection: a client that sends its whole body before reading (httpx does) always fails with
// EPIPE, and Node's `fetch` and `node:http` do when the reset wins the race with the answer, so
// each case runs 20 times. 6 MiB is more than loopback's buffers take, and less than the 8 MiB
// the server reads after its answer, so the whole body is read and the close is clean.
const MAX_ATTACHMENT_BYTES = 256 * 1024;
const BODY = new Uint8Array(6 * 1024 * 1024).fill(0x61);
const TIMES = 20;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    engine: createManualEngine(),
    attachments: createMemoryAttachmentStore(),
    limits: { maxAttachmentBytes: MAX_ATTACHMENT_BYTES, attachmentsPerMinute: 10_000 },
    attachmentCaps: { attachmentBytesPerHourPerClient: 2 ** 40 },
  });
});
afterAll(() => server.close());

/** The status and problem code a client read, or the error it got instead. */
type Outcome = { status: number; code: unknown } | { error: string };

let userCount = 0;
async function uploadHeaders(): Promise<Record<string, string>> {
  userCount += 1;
  const user = `uploader${userCount}`;
  return {
    'x-test-user': user,
    'x-agent-identity': await server.identityOf(user),
    'content-type': 'text/plain',
    'x-attachment-name': 'big.txt',
    'idempotency-key': freshKey(),
  };
}

/** `BODY` in chunks of 64 KiB, as a stream of unknown length (sent chunked). */
function chunkedBody(): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= BODY.byteLength) controller.close();
      else controller.enqueue(BODY.subarray(offset, (offset += 64 * 1024)));
    },
  });
}

async function uploadWithFetch(isChunked: boolean): Promise<Outcome> {
  try {
    const response = await fetch(`${server.baseUrl}/api/agent/v1/attachments`, {
      method: 'POST',
      headers: await uploadHeaders(),
      body: isChunked ? chunkedBody() : BODY,
      duplex: 'half',
    } as RequestInit);
    const problem = (await response.json()) as { code?: unknown };
    return { status: response.status, code: problem.code };
  } catch (error) {
    return { error: String((error as { cause?: unknown }).cause ?? error) };
  }
}

async function uploadWithNodeHttp(isChunked: boolean): Promise<Outcome> {
  const headers = await uploadHeaders();
  return new Promise((resolve) => {
    const req = httpRequest(
      `${server.baseUrl}/api/agent/v1/attachments`,
      { method: 'POST', headers: isChunked ? headers : { ...headers, 'content-length': String(BODY.byteLength) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { code?: unknown }).code }),
        );
        res.on('error', (error) => resolve({ error: `response: ${error.message}` }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: `request: ${error.code ?? error.message}` }));
    if (!isChunked) {
      req.end(BODY);
      return;
    }
    for (let offset = 0; offset < BODY.byteLength; offset += 64 * 1024)
      req.write(BODY.subarray(offset, offset + 64 * 1024));
    req.end();
  });
}

/** Sends the head and the whole body on a raw socket and only then reads the answer, as httpx does. */
async function uploadWritingFirst(isChunked: boolean): Promise<Outcome> {
  const headers = await uploadHeaders();
  const framing = isChunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(BODY.byteLength) };
  const head = Object.entries({ host: 'x', ...headers, ...framing }).map(([name, value]) => `${name}: ${value}\r\n`);
  const body = isChunked
    ? Buffer.concat([Buffer.from(`${BODY.byteLength.toString(16)}\r\n`), BODY, Buffer.from('\r\n0\r\n\r\n')])
    : BODY;
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(`POST /api/agent/v1/attachments HTTP/1.1\r\n${head.join('')}\r\n`);
      socket.write(body, (error) => {
        if (error !== null && error !== undefined) {
          resolve({ error: `write: ${(error as NodeJS.ErrnoException).code ?? error.message}` });
          return;
        }
        const answer = readRawResponse(socket);
        socket.resume();
        answer.then(
          (response) =>
            resolve({ status: response.status, code: (JSON.parse(response.body) as { code?: unknown }).code }),
          (readError: Error) => resolve({ error: `read: ${readError.message}` }),
        );
      });
    });
    // Nothing is read before the body is sent.
    socket.pause();
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ error: `socket: ${error.code ?? error.message}` }));
  });
}

describe('a body refused before its end (lingering close)', () => {
  const clients = {
    fetch: uploadWithFetch,
    'node:http': uploadWithNodeHttp,
    'a client that sends its whole body first': uploadWritingFirst,
  };
  for (const [clientName, upload] of Object.entries(clients)) {
    for (const isChunked of [false, true]) {
      const shape = isChunked ? 'a chunked body past the limit' : 'a declared Content-Length past the limit';
      it(`lets ${clientName} read its 413 problem for ${shape}, every time`, async () => {
        const outcomes: Outcome[] = [];
        for (let turn = 0; turn < TIMES; turn += 1) outcomes.push(await upload(isChunked));
        expect(outcomes).toEqual(Array.from({ length: TIMES }, () => ({ status: 413, code: 'PAYLOAD_TOO_LARGE' })));
      });
    }
  }
});
