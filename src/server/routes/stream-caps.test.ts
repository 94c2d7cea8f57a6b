import { afterEach, describe, expect, it } from 'vitest';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { ReadSse, TestServer, TestServerOptions } from '../test-support/start-test-server.ts';
import { readSse, startTestServer } from '../test-support/start-test-server.ts';

const engine = createManualEngine();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<TestServerOptions> = {}): Promise<TestServer> {
  const server = await startTestServer({ engine, ...options });
  servers.push(server);
  return server;
}

/** An open event stream; `ended` settles (with what it read) when the server ends the body. */
interface OpenStream {
  ended: Promise<ReadSse>;
  isEnded(): boolean;
}

async function openStream(server: TestServer, runId: string, user: string): Promise<OpenStream> {
  const response = await server.request(`/runs/${runId}/events`, { user });
  expect(response.status).toBe(200);
  let isEnded = false;
  const ended = readSse(response).finally(() => {
    isEnded = true;
  });
  ended.catch(() => undefined);
  return { ended, isEnded: () => isEnded };
}

describe('concurrent streams per identity', () => {
  it('keeps the newest 10 per identity: each one past the cap closes that identity’s oldest cleanly', async () => {
    const server = await start();
    const { runId } = await server.createRun('alice', 'Open many tabs');
    const { runId: bobRunId } = await server.createRun('bob', 'One tab');
    const bob = await openStream(server, bobRunId, 'bob');
    const streams: OpenStream[] = [];
    for (let index = 0; index < 10; index += 1) streams.push(await openStream(server, runId, 'alice'));
    // A cap closing one too early would have dropped the server's count below 11.
    await expect.poll(() => server.handler.stats().streams).toBe(11);
    expect(streams.filter((stream) => stream.isEnded())).toEqual([]);

    streams.push(await openStream(server, runId, 'alice'));
    // The oldest ends like a drained stream (clean end, events so far): the client resumes from its cursor.
    const oldest = await streams[0]?.ended;
    expect(oldest?.events.map((event) => event.type)).toEqual(['RUN_STARTED']);
    expect(oldest?.comments).toEqual(['open']);

    for (let index = 0; index < 14; index += 1) streams.push(await openStream(server, runId, 'alice'));
    await expect
      .poll(() => streams.map((stream) => stream.isEnded()))
      .toEqual([...Array.from({ length: 15 }, () => true), ...Array.from({ length: 10 }, () => false)]);
    expect(bob.isEnded()).toBe(false);
    expect(server.handler.stats().streams).toBe(11);

    const handle = await engine.handleOf(runId);
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    const last = await Promise.all(streams.slice(15).map((stream) => stream.ended));
    expect(last.map((read) => read.events.map((event) => event.type))).toEqual(
      Array.from({ length: 10 }, () => ['RUN_STARTED', 'RUN_FINISHED']),
    );
  });

  it('takes the cap from maxStreamsPerIdentity', async () => {
    const server = await start({ maxStreamsPerIdentity: 2 });
    const { runId } = await server.createRun('alice');
    const streams = [
      await openStream(server, runId, 'alice'),
      await openStream(server, runId, 'alice'),
      await openStream(server, runId, 'alice'),
    ];
    await streams[0]?.ended;
    await expect.poll(() => server.handler.stats().streams).toBe(2);
    expect(streams.map((stream) => stream.isEnded())).toEqual([true, false, false]);
  });
});

describe('the server-wide cap (maxConnections)', () => {
  it('answers 503 AGENT_UNAVAILABLE with Retry-After past it, and serves again once a request ends', async () => {
    const server = await start({ maxConnections: 3 });
    const runs = await Promise.all(['alice', 'bob', 'carol'].map((user) => server.createRun(user)));
    const open = await Promise.all(
      runs.map((run, index) => openStream(server, run.runId, ['alice', 'bob', 'carol'][index] as string)),
    );
    expect(server.handler.stats()).toMatchObject({ requests: 3, streams: 3 });

    const refused = await server.request('/bootstrap', { user: 'dave' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({
      code: 'AGENT_UNAVAILABLE',
      retryable: true,
      retryAfterMs: 5000,
      details: { reason: 'capacity', maxConnections: 3 },
    });

    const handle = await engine.handleOf(runs[0]?.runId as string);
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    await open[0]?.ended;
    await expect.poll(() => server.handler.stats().requests, { timeout: 3_000 }).toBeLessThanOrEqual(2);
    const served = await server.request('/bootstrap', { user: 'dave' });
    expect(served.status).toBe(200);
  });
});
