import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.ts';
import type { EventEnvelope } from '../../core/protocol.ts';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { FakeClock } from '../../../test/support/fake-clock.ts';
import {
  decodeChunked,
  openRawSocket,
  readRawResponse,
  sendRawHttp,
  waitForClose,
} from '../../../test/support/raw-http.ts';
import { createSseParser } from '../../core/sse/parse-sse-stream.ts';
import { createManualEngine, createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer, TestServerOptions } from '../test-support/start-test-server.ts';
import { freshKey, readSse, startTestServer } from '../test-support/start-test-server.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: TestServerOptions): Promise<TestServer> {
  const server = await startTestServer({ identityFor: (subject) => `idn_${subject.id}`, ...options });
  servers.push(server);
  return server;
}

/** Waits until `condition` holds (expect.poll, every few ms, up to 6 s). */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 6_000, interval: 5 }).toBe(true);
}

async function completeRun(server: TestServer): Promise<string | undefined> {
  const { runId } = await server.createRun('alice', 'Still there?');
  return (await readSse(await server.request(`/runs/${runId}/events`))).events.at(-1)?.type;
}

function postHeaders(contentLength: number): string {
  return [
    'POST /api/agent/v1/runs HTTP/1.1',
    'Host: x',
    'Content-Type: application/json',
    `Content-Length: ${contentLength}`,
    'X-Test-User: alice',
    'X-Agent-Identity: idn_alice',
    `Idempotency-Key: ${freshKey()}`,
    '',
    '',
  ].join('\r\n');
}

describe('slow request bodies', () => {
  for (const timeoutMs of [30_000, 5_000]) {
    it(`answers 408 REQUEST_TIMEOUT and closes when a body takes ${timeoutMs} ms (handler clock)`, async () => {
      const clock = createFakeClock(Date.parse('2026-12-01T09:00:00Z'));
      const server = await start({
        engine: createScriptedTestEngine(),
        clock,
        ...(timeoutMs === 30_000 ? {} : { requestBodyTimeoutMs: timeoutMs }),
      });
      const socket = await openRawSocket(server.port);
      const answer = readRawResponse(socket);
      // The handler's own housekeeping timers may use the same delay: wait for one more of it.
      const timersBefore = clock.delays.filter((delay) => delay === timeoutMs).length;
      socket.write(`${postHeaders(100)}{"agentVersionId":`);
      await waitUntil(
        () => clock.delays.filter((delay) => delay === timeoutMs).length > timersBefore,
        'the body timer is armed',
      );
      clock.advance(timeoutMs - 1);
      socket.write('"agv');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(server.handler.stats().requests).toBe(1);
      clock.advance(1);
      const response = await answer;
      expect(response.status).toBe(408);
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toMatchObject({
        code: 'REQUEST_TIMEOUT',
        retryable: true,
        details: { requestBodyTimeoutMs: timeoutMs },
      });
      expect(await waitForClose(socket, 2_000)).toBe(true);
      expect(await completeRun(server)).toBe('RUN_FINISHED');
    });
  }
});

describe('slow request headers (the http.Server settings of createAgentHttpServer)', () => {
  it('answers 408 and closes when the headers do not arrive within headersTimeoutMs', async () => {
    const server = await start({
      engine: createScriptedTestEngine(),
      http: { headersTimeoutMs: 300, requestTimeoutMs: 1_000, checkIntervalMs: 50 },
    });
    const response = await sendRawHttp(server.port, 'GET /api/agent/v1/bootstrap HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect([response.status, response.isClosed]).toEqual([408, true]);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(response.body)).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 408 });
    expect(await completeRun(server)).toBe('RUN_FINISHED');
  });
});

/** The complete SSE frames of a raw (chunked) response, in order. */
function parseFrames(raw: Buffer): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  const parser = createSseParser({ onFrame: (frame) => events.push(JSON.parse(frame.data) as EventEnvelope) });
  parser.push(decodeChunked(raw.subarray(raw.indexOf('\r\n\r\n') + 4)));
  return events;
}

describe('a stream whose client stops reading', () => {
  const STALL_MS = 20_000;
  const DELTA = 'x'.repeat(32 * 1024);

  /** The server on a fake clock, with a count of the stall timers armed right now. */
  async function startStallServer(): Promise<{
    server: TestServer;
    clock: FakeClock;
    engine: ReturnType<typeof createManualEngine>;
    armedStallTimers: () => number;
  }> {
    const clock = createFakeClock(Date.parse('2026-12-01T09:00:00Z'));
    const armed = new Set<unknown>();
    const watched: Clock = {
      now: () => clock.now(),
      setTimeout(callback, ms) {
        const handle = clock.setTimeout(() => {
          armed.delete(handle);
          callback();
        }, ms);
        if (ms === STALL_MS) armed.add(handle);
        return handle;
      },
      clearTimeout(handle) {
        armed.delete(handle);
        clock.clearTimeout(handle);
      },
    };
    const engine = createManualEngine();
    const server = await start({
      engine,
      clock: watched,
      streamStallTimeoutMs: STALL_MS,
      stream: { heartbeatSec: 3_600, maxStreamDurationSec: 3_600 },
    });
    return { server, clock, engine, armedStallTimers: () => armed.size };
  }

  it('is closed once it has taken no bytes for streamStallTimeoutMs, and resumes from its cursor', async () => {
    const { server, clock, engine, armedStallTimers } = await startStallServer();
    const { runId } = await server.createRun('alice', 'Big answer');
    const handle = await engine.handleOf(runId);
    await handle.append('TEXT_MESSAGE_START', { messageId: 'msg_big', role: 'assistant' });
    const socket = await openRawSocket(server.port);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.write(
      `GET /api/agent/v1/runs/${runId}/events HTTP/1.1\r\nHost: x\r\nX-Test-User: alice\r\nAgent-Protocol: 1\r\n\r\n`,
    );
    await waitUntil(() => Buffer.concat(received).includes('"TEXT_MESSAGE_START"'), 'the stream is open');
    socket.pause();

    // The client reads nothing more: the kernel buffers fill, then bytes wait in the process.
    let appended = 0;
    const isHeldBack = async (): Promise<boolean> => {
      if (armedStallTimers() === 0) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return armedStallTimers() === 1;
    };
    while (!(await isHeldBack())) {
      if (appended >= 2_000) throw new Error('the kernel never pushed back');
      await handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_big', delta: DELTA });
      appended += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(server.handler.stats().streams).toBe(1);
    clock.advance(STALL_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.handler.stats().streams).toBe(1);
    clock.advance(1);
    await waitUntil(() => server.handler.stats().streams === 0, 'the stalled stream is closed');

    socket.resume();
    expect(await waitForClose(socket, 5_000)).toBe(true);
    const delivered = parseFrames(Buffer.concat(received));
    const lastSeq = delivered.at(-1)?.seq ?? 0;
    expect(lastSeq).toBeLessThan(2 + appended);
    expect(delivered.map((event) => event.seq)).toEqual(Array.from({ length: lastSeq }, (_, index) => index + 1));

    await handle.append('TEXT_MESSAGE_END', { messageId: 'msg_big', finishReason: 'stop' });
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    const resumed = await readSse(
      await server.request(`/runs/${runId}/events`, { headers: { 'last-event-id': String(lastSeq) } }),
    );
    expect(resumed.events[0]?.seq).toBe(lastSeq + 1);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', seq: 4 + appended });
  });

  it('leaves a client that has taken every byte alone, however long the run then stays quiet', async () => {
    const { server, clock, engine } = await startStallServer();
    const { runId } = await server.createRun('alice', 'Big answer');
    const handle = await engine.handleOf(runId);
    await handle.append('TEXT_MESSAGE_START', { messageId: 'msg_big', role: 'assistant' });
    let seen = 0;
    const reading = readSse(await server.request(`/runs/${runId}/events`), (read) => {
      seen = read.events.length;
      return false;
    });
    for (let index = 0; index < 300; index += 1) {
      await handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_big', delta: DELTA });
    }
    await waitUntil(() => seen === 302, 'the reader has every event');
    clock.advance(2 * STALL_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.handler.stats().streams).toBe(1);
    await handle.append('TEXT_MESSAGE_END', { messageId: 'msg_big', finishReason: 'stop' });
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    const read = await reading;
    expect(read.events.map((event) => event.seq)).toEqual(Array.from({ length: 304 }, (_, index) => index + 1));
  });
});
