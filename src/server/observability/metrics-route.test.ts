import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, RunStatus } from '../../core/protocol.ts';
import { scrapeMetrics } from '../../../test/support/scrape-metrics.ts';
import type { AgentFetchHandler, AgentFetchHandlerOptions } from '../create-agent-fetch-handler.ts';
import { createAgentFetchHandler } from '../create-agent-fetch-handler.ts';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { LogRecord } from './structured-log.ts';
import { createListModel } from '../agent-loop/test-support/list-model.ts';
import { dataOf } from '../agent-loop/test-support/run-engine-harness.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import type { TestServerOptions } from '../test-support/start-test-server.ts';
import { freshKey } from '../test-support/start-test-server.ts';

const open: EngineServer[] = [];
const handlers: AgentFetchHandler[] = [];
afterEach(async () => {
  await Promise.all([...open.splice(0), ...handlers.splice(0)].map((server) => server.close()));
});

/** A fetch handler (which sees no socket: each call says its address) whose log lines land in `lines`. */
function fetchHandler(options: Partial<AgentFetchHandlerOptions>, lines: LogRecord[] = []): AgentFetchHandler {
  const handler = createAgentFetchHandler({
    engine: createScriptedTestEngine(),
    authenticate: () => null,
    logLevel: 'info',
    log: (record) => lines.push(record),
    ...options,
  });
  handlers.push(handler);
  return handler;
}

/** `GET /metrics` from `remoteAddress` (undefined: the host does not know it): its status and text. */
async function scrapeFrom(
  handler: AgentFetchHandler,
  remoteAddress: string | undefined,
  headers: Record<string, string> = {},
): Promise<[number, string]> {
  const response = await handler(new Request('http://agent.test/metrics', { headers }), { remoteAddress });
  return [response.status, await response.text()];
}

async function serve(handler: Omit<TestServerOptions, 'engine'>): Promise<EngineServer> {
  const server = await startEngineServer({ handler });
  open.push(server);
  return server;
}

const hasStatus =
  (status: RunStatus) =>
  (events: readonly EventEnvelope[]): boolean =>
    events.some((e) => e.type === 'RUN_STATUS_CHANGED' && (e.data as { status: string }).status === status);

describe('/metrics (metrics: true)', () => {
  it('after a run with tools and an approval, its counters and histograms say what happened, by bounded labels', async () => {
    // cacheMs 0: each scrape collects anew (by default one is served again for a second).
    const server = await serve({ metrics: { cacheMs: 0 }, limits: { runsPerMinute: 1 } });
    const { runId } = await server.createRun('alice', '/approval');
    const run = await server.follow(runId);
    const asked = await run.until(hasStatus('awaiting_input'));
    const during = await scrapeMetrics(server.baseUrl);
    expect(during.value('agent_chat_sse_streams')).toBe(1);
    expect(during.value('agent_chat_runs_finished_total')).toBe(0);

    const waitMs = 60;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const [requested] = dataOf(asked, 'INTERRUPT_REQUESTED');
    const interrupt = requested?.interrupt;
    const answer = await server.request(`/runs/${runId}/interrupts/${interrupt?.id ?? ''}`, {
      body: { decision: 'allow', argsDigest: interrupt?.argsDigest },
    });
    expect(answer.status).toBe(200);
    const events = await run.done;
    const refused = await server.request('/runs', {
      body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'again' }] } },
      headers: { 'idempotency-key': freshKey() },
    });
    expect(refused.status).toBe(429);

    const scrape = await scrapeMetrics(server.baseUrl);
    expect(scrape.value('agent_chat_runs_started_total')).toBe(1);
    expect(scrape.value('agent_chat_runs_finished_total', { outcome: 'success' })).toBe(1);
    expect(scrape.histogram('agent_chat_run_duration_seconds', { outcome: 'success' })?.count).toBe(1);
    // The run waited for the approval, so it lasted at least that long.
    expect(scrape.histogram('agent_chat_run_duration_seconds')?.sum).toBeGreaterThanOrEqual(waitMs / 1000);
    expect(scrape.histogram('agent_chat_time_to_first_token_seconds')?.count).toBe(1);

    const rounds = dataOf(events, 'STEP_STARTED').length;
    expect(rounds).toBe(3);
    expect(scrape.value('agent_chat_model_calls_total', { model: 'scripted', outcome: 'success' })).toBe(rounds);
    expect(scrape.histogram('agent_chat_model_call_duration_seconds', { model: 'scripted' })?.count).toBe(rounds);
    expect(scrape.value('agent_chat_model_tokens_total', { model: 'scripted', kind: 'input' })).toBeGreaterThan(0);
    expect(scrape.value('agent_chat_model_tokens_total', { model: 'scripted', kind: 'output' })).toBeGreaterThan(0);

    const toolNames = dataOf(events, 'TOOL_CALL_START').map((d) => d.toolCallName);
    expect(toolNames).toHaveLength(2);
    for (const tool of toolNames) {
      expect(scrape.value('agent_chat_tool_calls_total', { tool, status: 'completed' })).toBe(1);
      expect(scrape.histogram('agent_chat_tool_call_duration_seconds', { tool, status: 'completed' })?.count).toBe(1);
    }
    expect(scrape.value('agent_chat_approvals_total', { decision: 'allow' })).toBe(1);
    const wait = scrape.histogram('agent_chat_approval_wait_seconds', { decision: 'allow' });
    expect(wait?.count).toBe(1);
    expect(wait?.sum).toBeGreaterThanOrEqual(waitMs / 1000);

    expect(scrape.value('agent_chat_http_requests_total', { method: 'POST', route: '/v1/runs', status: '201' })).toBe(
      1,
    );
    expect(scrape.value('agent_chat_http_requests_total', { method: 'POST', route: '/v1/runs', status: '429' })).toBe(
      1,
    );
    expect(
      scrape.value('agent_chat_http_requests_total', {
        method: 'POST',
        route: '/v1/runs/{runId}/interrupts/{interruptId}',
        status: '200',
      }),
    ).toBe(1);
    expect(scrape.value('agent_chat_http_requests_total', { route: '/v1/runs/{runId}/events', status: '200' })).toBe(1);
    expect(scrape.value('agent_chat_http_refused_total', { code: 'RATE_LIMITED', limit: 'runsPerMinute' })).toBe(1);
    expect(scrape.value('agent_chat_sse_streams')).toBe(0);
    expect(
      scrape.histogram('agent_chat_storage_operation_duration_seconds', { operation: 'createRun', outcome: 'ok' })
        ?.count,
    ).toBe(1);
    expect(
      scrape.histogram('agent_chat_storage_operation_duration_seconds', { operation: 'appendEvents', outcome: 'ok' })
        ?.count,
    ).toBeGreaterThan(0);

    // No label anywhere carries an id or what the user typed.
    const labelValues = scrape.labelValues('agent_chat_');
    expect(labelValues.length).toBeGreaterThan(0);
    expect(labelValues.filter((value) => /(run|ses|int|msg|req)_[0-9A-Z]{10}|approval/.test(value))).toEqual([]);
  });

  it('labels a call to a tool no one registered `unregistered`, never by the name the model made up', async () => {
    const madeUp = 'made_up.tool_x9';
    const call = (id: string, name: string, args: string) => [
      { type: 'tool_call' as const, id, name, arguments: args },
      { type: 'finish' as const, reason: 'tool_calls' as const },
    ];
    const model = createListModel([
      call('call_a', madeUp, '{}'),
      call('call_b', 'drafts.list', '{}'),
      [
        { type: 'text', delta: 'Done.' },
        { type: 'finish', reason: 'stop' },
      ],
    ]);
    const server = await startEngineServer({ engine: { model }, handler: { metrics: true } });
    open.push(server);
    const { runId } = await server.createRun('alice', 'go');
    const events = await (await server.follow(runId)).done;
    expect(dataOf(events, 'TOOL_CALL_RESULT').map((r) => r.status)).toEqual(['failed', 'completed']);

    const scrape = await scrapeMetrics(server.baseUrl);
    expect(scrape.value('agent_chat_tool_calls_total', { tool: 'unregistered', status: 'failed' })).toBe(1);
    expect(scrape.value('agent_chat_tool_calls_total', { tool: 'drafts.list', status: 'completed' })).toBe(1);
    expect(scrape.labelValues('agent_chat_').filter((value) => value.includes('made_up'))).toEqual([]);
  });

  it('is refused to requests with browser signals unless allowed, and asks for the bearer token when one is set', async () => {
    const server = await serve({ metrics: true });
    const browserHeaders: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'document' },
      { origin: 'https://x.test' },
    ];
    for (const headers of browserHeaders) {
      const response = await fetch(`${server.baseUrl}/metrics`, { headers });
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain('agent_chat_');
    }
    const open = await serve({ metrics: { allowBrowsers: true } });
    expect(
      (await scrapeMetrics(open.baseUrl, { 'sec-fetch-site': 'same-origin' })).value('agent_chat_runs_started_total'),
    ).toBe(0);

    const guarded = await serve({ metrics: { bearerToken: 'scrape-secret-1' } });
    const anonymous = await fetch(`${guarded.baseUrl}/metrics`);
    expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
    const scrape = await scrapeMetrics(guarded.baseUrl, { authorization: 'Bearer scrape-secret-1' });
    expect(scrape.value('agent_chat_runs_started_total')).toBe(0);
  });

  it('is not served unless turned on, and each handler of one process counts only its own runs', async () => {
    const plain = await serve({});
    expect((await fetch(`${plain.baseUrl}/metrics`)).status).toBe(404);

    const first = await serve({ metrics: true });
    const second = await serve({ metrics: true });
    const { runId } = await first.createRun('alice', 'Hello');
    await (
      await first.follow(runId)
    ).done;
    expect((await scrapeMetrics(first.baseUrl)).value('agent_chat_runs_finished_total', { outcome: 'success' })).toBe(
      1,
    );
    expect((await scrapeMetrics(second.baseUrl)).value('agent_chat_runs_started_total')).toBe(0);
  });
});

describe('/metrics without a bearer token', () => {
  it('is served to loopback clients only: others, unknown ones and proxied ones get 403 saying to set the token', async () => {
    const lines: LogRecord[] = [];
    const handler = fetchHandler({ metrics: true }, lines);
    for (const loopback of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) {
      const [status, text] = await scrapeFrom(handler, loopback);
      expect([loopback, status]).toEqual([loopback, 200]);
      expect(text).toContain('agent_chat_runs_started_total');
    }
    const refusals: [string | undefined, Record<string, string>][] = [
      ['203.0.113.9', {}],
      ['10.0.0.5', {}],
      ['::ffff:10.0.0.5', {}],
      ['2001:db8::1', {}],
      [undefined, {}],
      // A proxy on the same host connects from loopback; the header says whom it forwards.
      ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
      ['127.0.0.1', { forwarded: 'for=203.0.113.9' }],
      ['127.0.0.1', { 'x-real-ip': '203.0.113.9' }],
    ];
    for (const [address, headers] of refusals) {
      const [status, text] = await scrapeFrom(handler, address, headers);
      expect([address, status]).toEqual([address, 403]);
      expect(text).toContain('metrics.bearerToken');
      expect(text).not.toContain('agent_chat_');
    }
    const events = lines.filter((line) => line.event.startsWith('metrics_'));
    expect(events.map((line) => [line.level, line.event])).toEqual([
      ['info', 'metrics_unauthenticated'],
      ['warn', 'metrics_refused'],
    ]);
    expect(events[0]?.['detail']).toMatch(/only to loopback clients/);
  });

  it('is served to any client with allowUnauthenticated, and with a bearer token to any client that sends it', async () => {
    const lines: LogRecord[] = [];
    const public_ = fetchHandler({ metrics: { allowUnauthenticated: true } }, lines);
    expect((await scrapeFrom(public_, '203.0.113.9'))[0]).toBe(200);
    expect((await scrapeFrom(public_, undefined))[0]).toBe(200);
    expect(lines.find((line) => line.event === 'metrics_unauthenticated')?.['detail']).toMatch(/any client/);

    const guarded = fetchHandler({ metrics: { bearerToken: 'scrape-secret-1' } });
    expect((await scrapeFrom(guarded, '203.0.113.9', { authorization: 'Bearer scrape-secret-1' }))[0]).toBe(200);
    // The token binds loopback clients too.
    expect((await scrapeFrom(guarded, '127.0.0.1'))[0]).toBe(401);
    expect((await scrapeFrom(guarded, '127.0.0.1', { authorization: 'Bearer scrape-secret-12' }))[0]).toBe(401);
  });

  it('refuses options it cannot use, naming them', () => {
    const make = (metrics: AgentFetchHandlerOptions['metrics']) => () => fetchHandler({ metrics });
    expect(make({ bearerToken: '' })).toThrow('metrics.bearerToken must be a non-empty string');
    expect(make({ bearerToken: '  ' })).toThrow('metrics.bearerToken must be a non-empty string');
    expect(make({ cacheMs: -1 })).toThrow('metrics.cacheMs must be');
    expect(make({ cacheMs: Number.NaN })).toThrow('metrics.cacheMs must be');
    expect(make({ maxScrapesPerSecond: 0 })).toThrow('metrics.maxScrapesPerSecond must be');
  });
});

describe('/metrics under a scrape flood', () => {
  it('answers past 10 scrapes a second 429 with Retry-After, and serves again once the rate allows', async () => {
    const server = await serve({ metrics: true });
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const response = await fetch(`${server.baseUrl}/metrics`);
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          text: await response.text(),
        };
      }),
    );
    const served = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(served.length + refused.length).toBe(40);
    // Ten at once, and one more for each tenth of a second the 40 took.
    expect(served.length).toBeGreaterThanOrEqual(10);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ retryAfter: '1', text: 'Too many scrapes; retry after 1 s.\n' });
    const scrapeStatus = async (): Promise<number> => {
      const response = await fetch(`${server.baseUrl}/metrics`);
      await response.text();
      return response.status;
    };
    await expect.poll(scrapeStatus, { timeout: 5_000, interval: 50 }).toBe(200);
  });
});
