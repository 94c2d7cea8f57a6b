import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readRawResponse } from '../../../test/support/raw-http.ts';
import type { Answer } from '../../../test/support/requests-from.ts';
import { openFrom as openSocketFrom, requestFrom } from '../../../test/support/requests-from.ts';
import type { RawResponse } from '../../../test/support/raw-http.ts';
import { createRunEngine } from '../agent-loop/create-run-engine.ts';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { createScriptedModel } from '../models/scripted-model.ts';
import { createManualEngine, createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer, TestServerOptions } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';
import { createDemoTools } from '../tools/demo-tools.ts';

// Every 127.x.y.z address is loopback on Linux: each test client is its own network client.
const MALLORY = '127.0.0.2';
const OTHER = '127.0.0.3';
const ORDINARY = '127.0.0.4';

const servers: TestServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<TestServerOptions>): Promise<TestServer> {
  const server = await startTestServer({
    engine: createScriptedTestEngine(),
    identityFor: (subject) => `idn_${subject.id}`,
    ...options,
  });
  servers.push(server);
  return server;
}

const openFrom = (server: TestServer, localAddress: string): Promise<Socket> =>
  openSocketFrom(server, localAddress, sockets);

function createBody(text: string): unknown {
  return { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] } };
}

/** A create and its stream read to the end, from `localAddress`: what an ordinary user sees. */
async function completeRunFrom(server: TestServer, localAddress: string, user: string): Promise<string | undefined> {
  const created = await requestFrom(server, localAddress, { user, path: '/runs', body: createBody('Hello?') });
  expect(created.status).toBe(201);
  const { runId } = JSON.parse(created.body) as { runId: string };
  const stream = await requestFrom(server, localAddress, { user, path: `/runs/${runId}/events` });
  return /"type":"(RUN_FINISHED|RUN_ERROR)"/.exec(stream.body)?.[1];
}

function problemOf(answer: Answer | RawResponse): { code: string; details: Record<string, unknown> } {
  return JSON.parse(answer.body) as { code: string; details: Record<string, unknown> };
}

/** Waits until `condition` holds (expect.poll, every few ms, up to 10 s). */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 10_000, interval: 5 }).toBe(true);
}

/**
 * Opens a connection from `address` and sends a create's headers as `user` with the start of its
 * body, then nothing (one byte every now and then would do the same); resolves once sent, with its
 * answer still to come (wrapped, so awaiting the send does not wait for it). A held one never gets
 * an answer: its socket is destroyed at the end.
 */
async function startSlowCreate(
  server: TestServer,
  address: string,
  user: string,
): Promise<{ answer: Promise<RawResponse> }> {
  const socket = await openFrom(server, address);
  const answer = readRawResponse(socket);
  answer.catch(() => undefined);
  socket.write(
    [
      'POST /api/agent/v1/runs HTTP/1.1',
      'Host: x',
      'Content-Type: application/json',
      'Content-Length: 1000',
      `X-Test-User: ${user}`,
      `X-Agent-Identity: idn_${user}`,
      `Idempotency-Key: ${freshKey()}`,
      '',
      '{"agentVersionId":',
    ].join('\r\n'),
  );
  return { answer };
}

describe('limits per network client', () => {
  it('holds one client’s slow bodies to its share (429 past it) while another client is served', async () => {
    const server = await start({ edgeLimits: { maxBodiesPerClient: 3 } });
    const answers: Promise<RawResponse>[] = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push((await startSlowCreate(server, MALLORY, `mallory${index}`)).answer);
    }
    const refused = await Promise.all(answers.slice(3));
    expect(refused.map((answer) => [answer.status, answer.headers['retry-after']])).toEqual(
      Array.from({ length: 3 }, () => [429, '5']),
    );
    expect(problemOf(refused[0] as RawResponse)).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxBodiesPerClient', maxBodiesPerClient: 3 },
    });
    expect(server.handler.stats().bodies).toBe(3);
    expect(await completeRunFrom(server, ORDINARY, 'olivia')).toBe('RUN_FINISHED');
  });

  it('holds one identity’s slow bodies to maxBodiesPerIdentity from however many clients, others served', async () => {
    const server = await start({ edgeLimits: { maxBodiesPerIdentity: 3 } });
    const addresses = Array.from({ length: 6 }, (_, index) => `127.0.1.${index + 10}`);
    const answers: Promise<RawResponse>[] = [];
    for (const address of addresses) {
      answers.push((await startSlowCreate(server, address, 'mallory')).answer);
      // In order, so the first three are the ones held.
      if (answers.length <= 3) await waitUntil(() => server.handler.stats().bodies === answers.length, 'body held');
    }
    const refused = await Promise.all(answers.slice(3));
    expect(refused.map((answer) => [answer.status, answer.headers['retry-after']])).toEqual(
      Array.from({ length: 3 }, () => [429, '5']),
    );
    expect(problemOf(refused[0] as RawResponse)).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxBodiesPerIdentity', maxBodiesPerIdentity: 3 },
    });
    expect(server.handler.stats().bodies).toBe(3);
    // Another identity, even from an address of the held ones, still gets its body read.
    expect(await completeRunFrom(server, addresses[0] as string, 'olivia')).toBe('RUN_FINISHED');
  });

  it('holds one client’s requests to maxConnectionsPerClient, however many identities it signs in as', async () => {
    const server = await start({ edgeLimits: { maxConnectionsPerClient: 4 } });
    for (let index = 0; index < 4; index += 1) {
      const socket = await openFrom(server, MALLORY);
      socket.write(`POST /api/agent/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`);
      socket.write(`Content-Length: 10\r\nX-Test-User: m${index}\r\nX-Agent-Identity: idn_m${index}\r\n\r\n{`);
    }
    await waitUntil(() => server.handler.stats().requests === 4, 'four requests are held');
    const refused = await requestFrom(server, MALLORY, { user: 'm9', path: '/bootstrap' });
    expect([refused.status, refused.headers['retry-after']]).toEqual([429, '5']);
    expect(problemOf(refused)).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxConnectionsPerClient', maxConnectionsPerClient: 4 },
    });
    expect((await requestFrom(server, ORDINARY, { user: 'olivia', path: '/bootstrap' })).status).toBe(200);
  });
});

describe('the newcomers’ reserve', () => {
  it('lets a client holding no run start one past maxLiveRuns, but not one that holds any', async () => {
    const server = await start({
      engine: createManualEngine(),
      edgeLimits: { maxLiveRunsPerClient: 2, maxLiveRuns: 2, newClientRunReserve: 1 },
    });
    const create = async (address: string, user: string): Promise<number> =>
      (await requestFrom(server, address, { user, path: '/runs', body: createBody('Work') })).status;
    expect([
      await create(MALLORY, 'm1'),
      await create(MALLORY, 'm2'),
      await create(OTHER, 'o1'),
      await create(OTHER, 'o2'),
      await create(ORDINARY, 'olivia'),
    ]).toEqual([201, 201, 201, 503, 503]);
  });
});

describe('fair admission under a flood', () => {
  it('gives the reserve to a newcomer asking for one run, not to flood clients asking for many at once', async () => {
    const clock = createFakeClock(Date.parse('2026-12-07T19:00:00Z'));
    const server = await start({
      engine: createManualEngine(),
      clock,
      edgeLimits: { maxLiveRuns: 2, maxLiveRunsPerClient: 2, newClientRunReserve: 2, newClientWaitMs: 250 },
    });
    const create = (address: string, user: string): Promise<Answer> =>
      requestFrom(server, address, { user, path: '/runs', body: createBody('Work') });
    const waitsBefore = (): number => clock.delays.filter((delay) => delay === 250).length;
    // The flood fills maxLiveRuns; the client holding them is refused at once.
    expect([(await create(MALLORY, 'm1')).status, (await create(MALLORY, 'm2')).status]).toEqual([201, 201]);
    const holder = await create(MALLORY, 'm3');
    // Two more flood clients hold no run and send three creates each at once: one of each waits.
    const flooders = ['127.0.0.5', '127.0.0.6'];
    const waitsAtStart = waitsBefore();
    const floods = flooders.flatMap((address, index) =>
      Array.from({ length: 3 }, (_, each) => create(address, `f${index}-${each}`)),
    );
    await expect.poll(waitsBefore).toBe(waitsAtStart + 2);
    clock.advance(250);
    const flooded = await Promise.all(floods);
    // The newcomer sends one create, waits its moment, and gets a reserved run.
    const newcomer = create(ORDINARY, 'olivia');
    await expect.poll(waitsBefore).toBe(waitsAtStart + 3);
    clock.advance(250);
    expect((await newcomer).status).toBe(201);
    for (const refused of [holder, ...flooded]) {
      expect([refused.status, refused.headers['retry-after'], problemOf(refused)]).toMatchObject([
        503,
        '5',
        { code: 'AGENT_UNAVAILABLE', details: { reason: 'capacity', limit: 'maxLiveRuns' } },
      ]);
    }
    expect(server.handler.stats().liveRuns).toBe(3);
  });
});

describe('trustProxy', () => {
  it('names the client from X-Forwarded-For only when the socket is a listed proxy', async () => {
    const server = await start({
      engine: createManualEngine(),
      trustProxy: ['127.0.0.1'],
      edgeLimits: { maxLiveRunsPerClient: 1 },
    });
    const create = (user: string, forwardedFor: string): Promise<Response> =>
      server.request('/runs', {
        user,
        body: createBody('Work'),
        headers: { 'idempotency-key': freshKey(), 'x-forwarded-for': forwardedFor },
      });
    const statuses = [
      (await create('a', '198.51.100.1')).status,
      (await create('b', '198.51.100.2')).status,
      (await create('c', '6.6.6.6, 198.51.100.1')).status,
    ];
    expect(statuses).toEqual([201, 201, 429]);
  });
});

describe('caps of the whole server', () => {
  it('caps open streams per client (429) and in all (503), leaving short requests served', async () => {
    const engine = createManualEngine();
    const server = await start({ engine, edgeLimits: { maxStreamsPerClient: 3, maxStreams: 5 } });
    const open = async (address: string, user: string): Promise<number> => {
      const created = await requestFrom(server, address, { user, path: '/runs', body: createBody('Wait') });
      const { runId } = JSON.parse(created.body) as { runId: string };
      const socket = await openFrom(server, address);
      const head = new Promise<number>((resolve) => {
        socket.once('data', (chunk: Buffer) => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString())?.[1])));
      });
      socket.write(`GET /api/agent/v1/runs/${runId}/events HTTP/1.1\r\nHost: x\r\nX-Test-User: ${user}\r\n\r\n`);
      return head;
    };
    const statuses = [];
    for (let index = 0; index < 4; index += 1) statuses.push(await open(MALLORY, `m${index}`));
    for (let index = 0; index < 3; index += 1) statuses.push(await open(OTHER, `o${index}`));
    expect(statuses).toEqual([200, 200, 200, 429, 200, 200, 503]);
    expect(server.handler.stats().streams).toBe(5);
    // The streams hold only stream slots: a new user still bootstraps and creates a run.
    expect((await requestFrom(server, ORDINARY, { user: 'olivia', path: '/bootstrap' })).status).toBe(200);
    const created = await requestFrom(server, ORDINARY, { user: 'olivia', path: '/runs', body: createBody('Hi') });
    expect(created.status).toBe(201);
  });

  it('sheds new runs with 503 while the event loop stays saturated, and takes them again once it is not', async () => {
    const server = await start({ edgeLimits: { shedAtEventLoopUtilization: 0.8 } });
    expect(
      (await requestFrom(server, ORDINARY, { user: 'olivia', path: '/runs', body: createBody('Hi') })).status,
    ).toBe(201);
    // Three stretches of 600 ms of work, the load monitor sampling in between: two full windows busy.
    for (let stretch = 0; stretch < 3; stretch += 1) {
      const until = performance.now() + 600;
      while (performance.now() < until) Math.sqrt(Math.random());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const shed = await requestFrom(server, ORDINARY, { user: 'olivia', path: '/runs', body: createBody('Hi') });
    expect([shed.status, shed.headers['retry-after'], problemOf(shed)]).toMatchObject([
      503,
      '5',
      { code: 'AGENT_UNAVAILABLE', details: { reason: 'overloaded', limit: 'shedAtEventLoopUtilization' } },
    ]);
    // Reads are never shed, and one quiet window ends the shedding (a shed request creates no run).
    expect((await requestFrom(server, ORDINARY, { user: 'olivia', path: '/bootstrap' })).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await requestFrom(server, ORDINARY, { user: 'bob', path: '/runs', body: createBody('Hi') })).status,
        {
          timeout: 5_000,
          interval: 250,
        },
      )
      .toBe(201);
  });

  it('sheds new runs with 503 + Retry-After past maxLiveRuns, and takes them again once runs end', async () => {
    const engine = createManualEngine();
    const server = await start({
      engine,
      edgeLimits: { maxLiveRunsPerClient: 2, maxLiveRuns: 3, newClientRunReserve: 0 },
    });
    const create = (address: string, user: string): Promise<Answer> =>
      requestFrom(server, address, { user, path: '/runs', body: createBody('Work') });
    const answers = [
      await create(MALLORY, 'm1'),
      await create(MALLORY, 'm2'),
      await create(MALLORY, 'm3'),
      await create(OTHER, 'o1'),
      await create(ORDINARY, 'olivia'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 429, 201, 503]);
    expect(problemOf(answers[2] as Answer)).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxLiveRunsPerClient', maxLiveRunsPerClient: 2 },
    });
    expect([answers[4]?.headers['retry-after'], problemOf(answers[4] as Answer)]).toMatchObject([
      '5',
      { code: 'AGENT_UNAVAILABLE', details: { reason: 'capacity', limit: 'maxLiveRuns', maxLiveRuns: 3 } },
    ]);
    expect(server.handler.stats().liveRuns).toBe(3);

    const { runId } = JSON.parse(answers[0]?.body ?? '{}') as { runId: string };
    await (await engine.handleOf(runId)).append('RUN_FINISHED', { outcome: { type: 'success' } });
    await waitUntil(() => server.handler.stats().liveRuns === 2, 'the ended run gives its slot back');
    expect((await create(ORDINARY, 'olivia')).status).toBe(201);
  });
});

describe('parked runs', () => {
  /** The real engine and scripted model, so `/approval` waits for an answer like a real run. */
  const startWithApprovals = (edgeLimits: TestServerOptions['edgeLimits']): Promise<TestServer> =>
    start({
      engine: createRunEngine({
        model: createScriptedModel({ delayMs: 1 }),
        tools: createDemoTools({ stepMs: 1 }),
        limits: { retryBaseMs: 1, deltaFlushMs: 5 },
      }),
      edgeLimits,
    });
  const runIdOf = (answer: Answer): string => (JSON.parse(answer.body) as { runId: string }).runId;

  it('give their live slot back while they wait, so a newcomer runs; past the parked caps they keep it', async () => {
    const server = await startWithApprovals({
      maxLiveRuns: 2,
      maxLiveRunsPerClient: 2,
      newClientRunReserve: 0,
      maxParkedRuns: 3,
      maxParkedRunsPerClient: 2,
    });
    const ask = (address: string, user: string): Promise<Answer> =>
      requestFrom(server, address, { user, path: '/runs', body: createBody('/approval') });
    const waiting = [await ask(MALLORY, 'm1'), await ask(MALLORY, 'm2')];
    expect(waiting.map((answer) => answer.status)).toEqual([201, 201]);
    await waitUntil(() => server.handler.stats().parkedRuns === 2, 'both runs wait for an approval');
    expect(server.handler.stats().liveRuns).toBe(0);
    // Mallory's third waits with its live slot: its share of parked slots is used up.
    const third = await ask(MALLORY, 'm3');
    expect(third.status).toBe(201);
    expect(runIdOf(third)).toMatch(/^run_/);
    const settled = (): boolean => {
      const stats = server.handler.stats();
      return stats.parkedRuns === 2 && stats.liveRuns === 1;
    };
    await waitUntil(settled, 'the third run waits on its live slot');
    expect(settled()).toBe(true);
    // A newcomer still runs to its end, though three runs wait and maxLiveRuns is 2.
    const newcomer = await requestFrom(server, ORDINARY, { user: 'olivia', path: '/runs', body: createBody('Hi') });
    expect(newcomer.status).toBe(201);
    await waitUntil(() => server.handler.stats().liveRuns === 1, 'the newcomer’s run ends');

    // An allowed run takes a live slot again to go on, and gives every slot back when it ends.
    const first = runIdOf(waiting[0] as Answer);
    const resource = (await (await server.request(`/runs/${first}`, { user: 'm1' })).json()) as {
      interrupts: { id: string; argsDigest: string }[];
    };
    const [interrupt] = resource.interrupts;
    const allowed = await server.request(`/runs/${first}/interrupts/${interrupt?.id ?? ''}`, {
      user: 'm1',
      body: { decision: 'allow', argsDigest: interrupt?.argsDigest },
      headers: { 'x-agent-identity': 'idn_m1' },
    });
    expect(allowed.status).toBe(200);
    const isSettledAgain = (): boolean => {
      const stats = server.handler.stats();
      return stats.parkedRuns === 1 && stats.liveRuns === 1;
    };
    await waitUntil(isSettledAgain, 'the allowed run ends and gives its slots back');
    const status = ((await (await server.request(`/runs/${first}`, { user: 'm1' })).json()) as { status: string })
      .status;
    expect(status).toBe('completed');
    expect(server.handler.stats()).toMatchObject({ parkedRuns: 1, liveRuns: 1 });
  });
});
