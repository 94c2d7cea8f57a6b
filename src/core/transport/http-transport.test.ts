import { describe, expect, it } from 'vitest';
import { AgentError } from './agent-error.ts';
import { createHttpTransport } from './http-transport.ts';
import type { HttpTransportOptions } from './http-transport.ts';
import { createFakeClock, settleWithFakeClock } from '../../../test/support/fake-clock.ts';
import type { FakeClock } from '../../../test/support/fake-clock.ts';

const NOW = Date.UTC(2026, 10, 29, 13, 40, 0);

interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal;
}

type Responder = (call: RecordedCall) => Response | Promise<Response>;

/** A fetch that records each call and answers from a script, one responder per call. */
function createScriptedFetch(script: Responder[]): { fetch: typeof fetch; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const scriptedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const call: RecordedCall = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: init?.body,
      credentials: init?.credentials,
      signal: init?.signal as AbortSignal,
    };
    calls.push(call);
    const responder = script[calls.length - 1];
    if (!responder) throw new Error(`unexpected call #${calls.length}`);
    return responder(call);
  };
  return { fetch: scriptedFetch as typeof fetch, calls };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function problem(
  status: number,
  code: string,
  headers: Record<string, string> = {},
  members: Record<string, unknown> = {},
): Responder {
  return () =>
    new Response(
      JSON.stringify({
        type: 'about:blank',
        title: code,
        status,
        code,
        requestId: `req_${code}`,
        retryable: false,
        retryAfterMs: null,
        runId: null,
        details: {},
        ...members,
      }),
      {
        status,
        headers: { 'content-type': 'application/problem+json', ...headers },
      },
    );
}

const networkFailure: Responder = () => Promise.reject(new TypeError('fetch failed'));

/** Never answers; rejects with the abort reason like a real fetch. */
const hang: Responder = (call) =>
  new Promise<Response>((_, reject) =>
    call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true }),
  );

function setup(script: Responder[], options: Partial<HttpTransportOptions> = {}) {
  const scripted = createScriptedFetch(script);
  const clock = createFakeClock(NOW);
  const transport = createHttpTransport({
    endpoint: 'http://127.0.0.1:4176/api/agent/',
    fetch: scripted.fetch,
    clock,
    random: () => 0.5,
    getIdentity: () => 'idn_8f2',
    ...options,
  });
  return { transport, calls: scripted.calls, clock };
}

async function rejection(promise: Promise<unknown>, clock: FakeClock): Promise<AgentError> {
  try {
    await settleWithFakeClock(promise, clock);
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const CREATE_BODY = '{"agentVersionId":"agv_34","input":{"content":[{"type":"text","text":"Hi 👋"}]}}';

describe('createHttpTransport: request', () => {
  it('sends the protocol headers, identity and cookie credentials on a GET', async () => {
    const { transport, calls, clock } = setup([json(200, { ok: true }, { 'x-request-id': 'req_1' })]);
    const response = await settleWithFakeClock(
      transport.request<{ ok: boolean }>({ method: 'GET', path: '/bootstrap' }),
      clock,
    );
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ ok: true });
    expect(response.requestId).toBe('req_1');
    expect(calls.map(({ signal: _signal, ...call }) => call)).toStrictEqual([
      {
        url: 'http://127.0.0.1:4176/api/agent/v1/bootstrap',
        method: 'GET',
        headers: { accept: 'application/json', 'agent-protocol': '1', 'x-agent-identity': 'idn_8f2' },
        body: undefined,
        credentials: 'same-origin',
      },
    ]);
  });

  it('adds Content-Type, the quoted Idempotency-Key on a POST; omits an unknown identity', async () => {
    const { transport, calls, clock } = setup([json(201, { runId: 'run_1' })], {
      getIdentity: () => null,
      credentials: 'include',
    });
    await settleWithFakeClock(
      transport.request({ method: 'POST', path: '/runs', body: CREATE_BODY, idempotencyKey: 'key_0190f3c2' }),
      clock,
    );
    expect(calls[0]?.headers).toStrictEqual({
      accept: 'application/json',
      'agent-protocol': '1',
      'content-type': 'application/json',
      'idempotency-key': '"key_0190f3c2"',
    });
    expect(calls[0]?.body).toBe(CREATE_BODY);
    expect(calls[0]?.credentials).toBe('include');
  });

  it("asks the product's headers hook before every attempt, sends the locale, and keeps the protocol's headers", async () => {
    let tokens = 0;
    const { transport, calls, clock } = setup([problem(503, 'AGENT_UNAVAILABLE'), json(200, { ok: true })], {
      locale: 'zh-CN',
      headers: async () => {
        tokens += 1;
        return { authorization: `Bearer tok_${tokens}`, 'agent-protocol': '9' };
      },
    });
    await settleWithFakeClock(transport.request({ method: 'GET', path: '/bootstrap', attempts: 2 }), clock);
    expect(calls.map((call) => call.headers)).toStrictEqual(
      [1, 2].map((token) => ({
        accept: 'application/json',
        'accept-language': 'zh-CN',
        'agent-protocol': '1',
        authorization: `Bearer tok_${token}`,
        'x-agent-identity': 'idn_8f2',
      })),
    );
  });

  it('fails the attempt as NETWORK_ERROR without fetching when the headers hook throws', async () => {
    const { transport, calls, clock } = setup([], {
      headers: () => Promise.reject(new Error('token refresh failed')),
    });
    const error = await rejection(transport.request({ method: 'GET', path: '/bootstrap' }), clock);
    expect(error.code).toBe('NETWORK_ERROR');
    expect(calls).toEqual([]);
  });

  it('returns a null body for 204 and for an empty 202', async () => {
    const { transport, clock } = setup([
      () => new Response(null, { status: 204 }),
      () => new Response('', { status: 202 }),
    ]);
    expect(
      (await settleWithFakeClock(transport.request({ method: 'DELETE', path: '/sessions/ses_1' }), clock)).body,
    ).toBe(null);
    expect(
      (await settleWithFakeClock(transport.request({ method: 'POST', path: '/runs/run_1/cancel', body: '{}' }), clock))
        .body,
    ).toBe(null);
  });

  it('retries 5xx, network errors and 429 with byte-identical bodies and full-jitter delays', async () => {
    const { transport, calls, clock } = setup([
      problem(503, 'AGENT_UNAVAILABLE'),
      networkFailure,
      () => new Response('bad gateway', { status: 502 }),
      problem(429, 'RATE_LIMITED', {}, { retryable: true }),
      json(201, { runId: 'run_1' }),
    ]);
    const response = await settleWithFakeClock(
      transport.request<{ runId: string }>({
        method: 'POST',
        path: '/runs',
        body: CREATE_BODY,
        idempotencyKey: 'key_1',
        attempts: 5,
      }),
      clock,
    );
    expect(response.body).toStrictEqual({ runId: 'run_1' });
    expect(calls.length).toBe(5);
    expect(calls.every((call) => call.body === CREATE_BODY)).toBe(true);
    expect(calls.every((call) => JSON.stringify(call.headers) === JSON.stringify(calls[0]?.headers))).toBe(true);
    // Each attempt arms its 30 s timeout; between them sleep random()*min(30000, 500*2^n) with random = 0.5.
    expect(clock.delays).toStrictEqual([30_000, 250, 30_000, 500, 30_000, 1000, 30_000, 2000, 30_000]);
  });

  it('waits at least Retry-After (seconds or HTTP-date) before retrying', async () => {
    const { transport, calls, clock } = setup([
      problem(429, 'RATE_LIMITED', { 'retry-after': '7' }),
      problem(503, 'AGENT_UNAVAILABLE', { 'retry-after': new Date(NOW + 7000 + 4000).toUTCString() }),
      json(200, {}),
    ]);
    await settleWithFakeClock(transport.request({ method: 'GET', path: '/bootstrap', attempts: 3 }), clock);
    expect(calls.length).toBe(3);
    expect(clock.delays.filter((delay) => delay !== 30_000)).toStrictEqual([7000, 4000]);
    expect(clock.now()).toBe(NOW + 11_000);
  });

  it('retries 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const { transport, calls, clock } = setup([
      problem(409, 'IDEMPOTENCY_KEY_IN_USE', { 'retry-after': '1' }),
      json(201, { runId: 'run_1' }),
    ]);
    await settleWithFakeClock(
      transport.request({ method: 'POST', path: '/runs', body: CREATE_BODY, attempts: 3 }),
      clock,
    );
    expect(calls.length).toBe(2);
    expect(clock.delays.filter((delay) => delay !== 30_000)).toStrictEqual([1000]);
  });

  const definitive: Array<[number, string]> = [
    [400, 'IDEMPOTENCY_KEY_REQUIRED'],
    [401, 'UNAUTHENTICATED'],
    [404, 'NOT_FOUND'],
    [409, 'RUN_ALREADY_ACTIVE'],
    [409, 'IDENTITY_CHANGED'],
    [422, 'IDEMPOTENCY_KEY_REUSED'],
  ];
  for (const [status, code] of definitive) {
    it(`does not retry ${status} ${code}`, async () => {
      const { transport, calls, clock } = setup([problem(status, code), json(201, {})]);
      const error = await rejection(
        transport.request({ method: 'POST', path: '/runs', body: CREATE_BODY, attempts: 5 }),
        clock,
      );
      expect([error.code, error.status, error.requestId, error.retryable]).toStrictEqual([
        code,
        status,
        `req_${code}`,
        false,
      ]);
      expect(calls.length).toBe(1);
    });
  }

  const tooManyRequests: Array<{ title: string; answer: Responder; outcome: string; calls: number; waits: number[] }> =
    [
      {
        title: '429 INPUT_LIMIT (retryable: false, no Retry-After) is definitive',
        answer: problem(429, 'INPUT_LIMIT'),
        outcome: '429 INPUT_LIMIT retryable=false',
        calls: 1,
        waits: [],
      },
      {
        title: 'a bare 429 with neither a hint nor Retry-After (a proxy) is definitive',
        answer: () => new Response('slow down', { status: 429 }),
        outcome: '429 RATE_LIMITED retryable=false',
        calls: 1,
        waits: [],
      },
      {
        title: '429 RATE_LIMITED with retryable: true is retried after the backoff',
        answer: problem(429, 'RATE_LIMITED', {}, { retryable: true }),
        outcome: 'created',
        calls: 2,
        waits: [250],
      },
      {
        title: 'a 429 with Retry-After is retried after it, whatever its body',
        answer: problem(429, 'RATE_LIMITED', { 'retry-after': '2' }),
        outcome: 'created',
        calls: 2,
        waits: [2000],
      },
    ];
  for (const { title, answer, outcome, calls: expectedCalls, waits } of tooManyRequests) {
    it(`retries a 429 only when the server says so: ${title}`, async () => {
      const { transport, calls, clock } = setup([answer, json(201, { runId: 'run_1' })]);
      const settled = await settleWithFakeClock(
        transport.request({ method: 'POST', path: '/runs', body: CREATE_BODY, idempotencyKey: 'key_1', attempts: 3 }),
        clock,
      ).then(
        () => 'created',
        (error: AgentError) => `${error.status} ${error.code} retryable=${error.retryable}`,
      );
      expect(settled).toBe(outcome);
      expect(calls.length).toBe(expectedCalls);
      expect(clock.delays.filter((delay) => delay !== 30_000)).toStrictEqual(waits);
    });
  }

  it('rejects with the last error once attempts run out', async () => {
    const { transport, calls, clock } = setup([problem(503, 'AGENT_UNAVAILABLE'), problem(500, 'INTERNAL')]);
    const error = await rejection(transport.request({ method: 'GET', path: '/bootstrap', attempts: 2 }), clock);
    expect([error.code, error.status]).toStrictEqual(['INTERNAL', 500]);
    expect(calls.length).toBe(2);
  });

  it('tries once without a retry policy', async () => {
    const { transport, calls, clock } = setup([networkFailure]);
    const error = await rejection(transport.request({ method: 'GET', path: '/bootstrap' }), clock);
    expect([error.code, error.retryable, (error.cause as Error).message]).toStrictEqual([
      'NETWORK_ERROR',
      true,
      'fetch failed',
    ]);
    expect(calls.length).toBe(1);
  });

  it('gives up instead of retrying early when Retry-After exceeds maxRetryAfterMs', async () => {
    const { transport, calls, clock } = setup([problem(503, 'AGENT_UNAVAILABLE', { 'retry-after': '120' })], {
      maxRetryAfterMs: 60_000,
    });
    const error = await rejection(transport.request({ method: 'GET', path: '/bootstrap', attempts: 3 }), clock);
    expect([error.code, error.retryAfterMs]).toStrictEqual(['AGENT_UNAVAILABLE', 120_000]);
    expect(calls.length).toBe(1);
  });

  it('turns a hung attempt into TIMEOUT after timeoutMs, aborting the fetch, and retries it', async () => {
    const { transport, calls, clock } = setup([hang, json(200, { ok: true })]);
    const response = await settleWithFakeClock(
      transport.request({ method: 'GET', path: '/runs/run_1', timeoutMs: 1500, attempts: 2 }),
      clock,
    );
    expect(response.body).toStrictEqual({ ok: true });
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(clock.delays).toStrictEqual([1500, 250, 1500]);
  });

  it('rejects TIMEOUT when the only attempt hangs', async () => {
    const { transport, clock } = setup([hang], { defaultTimeoutMs: 2000 });
    const error = await rejection(transport.request({ method: 'GET', path: '/runs/run_1' }), clock);
    expect([error.code, error.retryable, error.message]).toStrictEqual([
      'TIMEOUT',
      true,
      'The server did not answer in time.',
    ]);
    expect(clock.now()).toBe(NOW + 2000);
  });

  it('rejects ABORTED and never retries once the caller aborts during an attempt', async () => {
    const controller = new AbortController();
    const { transport, calls, clock } = setup([
      (call) => {
        queueMicrotask(() => controller.abort(new Error('user left')));
        return hang(call);
      },
      json(200, {}),
    ]);
    const error = await rejection(
      transport.request({ method: 'POST', path: '/runs', body: CREATE_BODY, signal: controller.signal, attempts: 5 }),
      clock,
    );
    expect([error.code, error.retryable, (error.cause as Error).message]).toStrictEqual([
      'ABORTED',
      false,
      'user left',
    ]);
    expect(calls.length).toBe(1);
    expect(clock.pendingCount()).toBe(0);
  });

  it('rejects ABORTED when the caller aborts during the backoff sleep', async () => {
    const controller = new AbortController();
    const { transport, calls, clock } = setup([
      problem(503, 'AGENT_UNAVAILABLE', { 'retry-after': '5' }),
      json(200, {}),
    ]);
    const pending = transport.request({ method: 'GET', path: '/bootstrap', signal: controller.signal, attempts: 3 });
    while (clock.pendingCount() === 0 || clock.delays.at(-1) !== 5000)
      await new Promise<void>((resolve) => setImmediate(resolve));
    controller.abort('stop');
    const error = await rejection(pending, clock);
    expect(error.code).toBe('ABORTED');
    expect(calls.length).toBe(1);
  });

  it('never calls fetch with an already-aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const { transport, calls, clock } = setup([json(200, {})]);
    expect(
      (await rejection(transport.request({ method: 'GET', path: '/bootstrap', signal: controller.signal }), clock))
        .code,
    ).toBe('ABORTED');
    expect(calls.length).toBe(0);
  });

  it('rejects INVALID_RESPONSE for a 2xx body that is not JSON, without retrying', async () => {
    const { transport, calls, clock } = setup([
      () => new Response('<html>login</html>', { status: 200, headers: { 'x-request-id': 'req_h' } }),
    ]);
    const error = await rejection(transport.request({ method: 'GET', path: '/bootstrap', attempts: 3 }), clock);
    expect([error.code, error.status, error.requestId, error.retryable]).toStrictEqual([
      'INVALID_RESPONSE',
      200,
      'req_h',
      false,
    ]);
    expect(calls.length).toBe(1);
  });
});

describe('createHttpTransport: openStream', () => {
  const sse = (): Response =>
    new Response('retry: 3000\n: open\n\n', {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    });

  it('sends the SSE headers with Last-Event-ID and returns the raw response', async () => {
    const controller = new AbortController();
    const { transport, calls, clock } = setup([sse]);
    const response = await settleWithFakeClock(
      transport.openStream({ path: '/runs/run_1/events?after=4', lastEventId: '4', signal: controller.signal }),
      clock,
    );
    expect(await response.text()).toBe('retry: 3000\n: open\n\n');
    expect(calls.map(({ signal: _signal, ...call }) => call)).toStrictEqual([
      {
        url: 'http://127.0.0.1:4176/api/agent/v1/runs/run_1/events?after=4',
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          'agent-protocol': '1',
          'last-event-id': '4',
          'x-agent-identity': 'idn_8f2',
        },
        body: undefined,
        credentials: 'same-origin',
      },
    ]);
    expect(clock.pendingCount()).toBe(0);
    controller.abort('closed by caller');
    expect(calls[0]?.signal.reason).toBe('closed by caller');
  });

  it('returns 204 as is', async () => {
    const { transport, clock } = setup([() => new Response(null, { status: 204 })]);
    const response = await settleWithFakeClock(
      transport.openStream({ path: '/runs/run_1/events?after=9', signal: new AbortController().signal }),
      clock,
    );
    expect(response.status).toBe(204);
  });

  it('rejects with the problem code for an error status, without retrying', async () => {
    const { transport, calls, clock } = setup([problem(410, 'CURSOR_EXPIRED'), sse]);
    const error = await rejection(
      transport.openStream({ path: '/runs/run_1/events?after=1', signal: new AbortController().signal }),
      clock,
    );
    expect([error.code, error.status, error.requestId]).toStrictEqual(['CURSOR_EXPIRED', 410, 'req_CURSOR_EXPIRED']);
    expect(calls.length).toBe(1);
  });

  it('rejects INVALID_RESPONSE for a 200 that is not an event stream', async () => {
    const { transport, clock } = setup([
      () => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    ]);
    const error = await rejection(
      transport.openStream({ path: '/runs/run_1/events', signal: new AbortController().signal }),
      clock,
    );
    expect([error.code, error.status]).toStrictEqual(['INVALID_RESPONSE', 200]);
  });

  it('rejects TIMEOUT when headers do not arrive in time, and NETWORK_ERROR when fetch fails', async () => {
    const { transport, clock } = setup([hang, networkFailure]);
    const timeout = await rejection(
      transport.openStream({ path: '/runs/run_1/events', signal: new AbortController().signal, timeoutMs: 10_000 }),
      clock,
    );
    expect(timeout.code).toBe('TIMEOUT');
    const network = await rejection(
      transport.openStream({ path: '/runs/run_1/events', signal: new AbortController().signal }),
      clock,
    );
    expect(network.code).toBe('NETWORK_ERROR');
  });

  it('rejects ABORTED when the caller aborts before headers arrive', async () => {
    const controller = new AbortController();
    const { transport, clock } = setup([
      (call) => {
        queueMicrotask(() => controller.abort('hidden tab'));
        return hang(call);
      },
    ]);
    const error = await rejection(
      transport.openStream({ path: '/runs/run_1/events', signal: controller.signal }),
      clock,
    );
    expect([error.code, error.cause]).toStrictEqual(['ABORTED', 'hidden tab']);
  });
});
