import { afterEach, describe, expect, it } from 'vitest';
import { assertEventInvariants } from '../agent-loop/test-support/assert-event-invariants.ts';
import { dataOf } from '../agent-loop/test-support/run-engine-harness.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { resourceFromEvents, startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import type { TestServerOptions } from '../test-support/start-test-server.ts';
import { freshKey } from '../test-support/start-test-server.ts';
import {
  executorRequests,
  hasEvent,
  PAGE_TOOLS,
  startBrowserCall,
} from '../executors/test-support/browser-tool-requests.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(handler: Omit<TestServerOptions, 'engine'> = { canUseExecutor: () => true }) {
  const server = await startEngineServer({ handler });
  open.push(server);
  return server;
}

const accepted = { receiptId: 'rcp_a', sequence: 0, kind: 'accepted' } as const;

describe('browser tools turned off (no canUseExecutor): fail closed', () => {
  it('publishes browserTools unsupported, ignores declarations and refuses every executor request with 403', async () => {
    const server = await serve({});
    const boot = (await (await server.request('/bootstrap')).json()) as { capabilities: Record<string, unknown> };
    expect(boot.capabilities.browserTools).toEqual({ supported: false });

    const { runId } = await server.createRun('alice', '/clienttool page.read_selection {}', {
      browserTools: PAGE_TOOLS,
    });
    const events = await (await server.follow(runId)).done;
    expect(dataOf(events, 'RUN_STARTED')[0]?.browserTools).toBeUndefined();
    expect(dataOf(events, 'TOOL_CALL_START')[0]?.executorKind).toBeUndefined();
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({ status: 'failed', content: 'There is no tool named "page.read_selection".' }),
    );

    const requests = executorRequests(server);
    const refusals = [
      await requests.connect('exe_tab1'),
      await requests.claim(runId, 'tc_1', 'exe_tab1'),
      await requests.post('/executors/exe_tab1/heartbeat'),
      await requests.get('/executors/exe_tab1/pending'),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(403);
      expect(refusal.body).toEqual(
        expect.objectContaining({ code: 'FORBIDDEN', details: { reason: 'browser_tools_off' } }),
      );
    }
  });

  it('refuses an executor the product does not allow, and one whose check throws', async () => {
    const server = await serve({
      canUseExecutor: (_subject, executorId) => {
        if (executorId === 'exe_broken') throw new Error('policy store down');
        return executorId === 'exe_allowed';
      },
    });
    const requests = executorRequests(server);
    expect((await requests.connect('exe_allowed')).status).toBe(200);
    for (const executorId of ['exe_other', 'exe_broken']) {
      const refused = await requests.connect(executorId);
      expect([refused.status, refused.body.details]).toEqual([403, { reason: 'executor_not_permitted' }]);
    }
  });
});

describe('claims, grants and receipts', () => {
  it('claims once, replays the same grant to the same executor, refuses another, and applies each receipt once', async () => {
    const server = await serve();
    const tab1 = executorRequests(server, 'alice', 'exe_tab1');
    const tab2 = executorRequests(server, 'alice', 'exe_tab2');
    expect((await tab1.connect('exe_tab1')).body).toEqual(
      expect.objectContaining({ executorId: 'exe_tab1', heartbeatSec: 15 }),
    );
    await tab2.connect('exe_tab2');
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    expect(dataOf(run.events(), 'TOOL_CALL_START')[0]?.executorKind).toBe('browser');
    expect((await server.resource(runId)).status).toBe('awaiting_tool');

    const first = await tab1.claim(runId, toolCallId, 'exe_tab1');
    expect(first.status).toBe(200);
    expect(first.body).toEqual(expect.objectContaining({ replayed: false, isAccepted: false, receiptSequence: -1 }));
    const grant = String(first.body.grant);
    expect(await tab1.claim(runId, toolCallId, 'exe_tab1')).toEqual(
      expect.objectContaining({ status: 200, body: expect.objectContaining({ grant, replayed: true }) }),
    );
    const other = await tab2.claim(runId, toolCallId, 'exe_tab2');
    expect([other.status, other.body.code]).toEqual([409, 'TOOL_CALL_ALREADY_CLAIMED']);

    // Nobody but the holder, with its grant, may send receipts.
    const forged = await tab2.receipt(runId, toolCallId, grant, { ...accepted, executorId: 'exe_tab2' });
    expect([forged.status, forged.body.code]).toEqual([403, 'TOOL_GRANT_INVALID']);
    const noGrant = await tab1.receipt(runId, toolCallId, '', accepted);
    expect([noGrant.status, noGrant.body.code]).toEqual([403, 'TOOL_GRANT_INVALID']);
    const early = await tab1.receipt(runId, toolCallId, grant, { receiptId: 'rcp_p', sequence: 1, kind: 'progress' });
    expect([early.status, early.body.code]).toEqual([409, 'RECEIPT_OUT_OF_ORDER']);

    expect((await tab1.receipt(runId, toolCallId, grant, accepted)).body).toEqual(
      expect.objectContaining({ accepted: true }),
    );
    const repeated = await tab1.receipt(runId, toolCallId, grant, accepted);
    expect([repeated.body.replayed, repeated.headers.get('idempotent-replayed')]).toEqual([true, 'true']);
    await tab1.receipt(runId, toolCallId, grant, {
      receiptId: 'rcp_p1',
      sequence: 1,
      kind: 'progress',
      message: 'Reading the page',
      fraction: 0.5,
    });
    const final = { receiptId: 'rcp_done', sequence: 2, kind: 'completed', result: { text: 'Hello world' } } as const;
    const [delivered, again] = [
      await tab1.receipt(runId, toolCallId, grant, final),
      await tab1.receipt(runId, toolCallId, grant, final),
    ];
    expect(delivered.body).toEqual({ accepted: true, eventSeq: expect.any(Number) });
    expect(again.body).toEqual({ accepted: true, replayed: true });

    const events = await run.done;
    assertEventInvariants(events);
    const receipts = dataOf(events, 'TOOL_CALL_RECEIPT');
    expect(receipts.map((receipt) => [receipt.kind, receipt.receiptId])).toEqual([
      ['accepted', 'rcp_a'],
      ['progress', 'rcp_p1'],
      ['completed', 'rcp_done'],
    ]);
    expect(receipts[2]).toEqual(expect.objectContaining({ content: '{"text":"Hello world"}', executorId: 'exe_tab1' }));
    const claimed = dataOf(events, 'TOOL_CALL_CLAIMED');
    expect(claimed).toEqual([{ toolCallId, executorId: 'exe_tab1', grantDigest: expect.stringMatching(/^sha256:/) }]);
    // The grant itself never reaches the log.
    expect(JSON.stringify(events)).not.toContain(grant);
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({ status: 'completed', content: '{"text":"Hello world"}' }),
    );
    expect(events.filter((event) => event.type === 'RUN_STATUS_CHANGED').map((event) => event.data)).toEqual([
      { status: 'running' },
      { status: 'awaiting_tool', reason: 'browser_tool' },
      { status: 'running' },
    ]);
    const answer = events
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((e) => (e.data as { delta: string }).delta);
    expect(answer.join('').endsWith('The browser tool page.read_selection returned: {"text":"Hello world"}')).toBe(
      true,
    );
    const resource = await server.resource(runId);
    expect(resource).toEqual(resourceFromEvents(events));
    expect(resource.toolCalls[0]?.executor).toEqual(
      expect.objectContaining({
        executorId: 'exe_tab1',
        receiptSequence: 2,
        outcome: expect.objectContaining({ kind: 'completed', receiptId: 'rcp_done' }),
      }),
    );
    // After the end, a replayed claim still answers the grant (a reloaded page delivering late).
    expect((await tab1.claim(runId, toolCallId, 'exe_tab1')).body).toEqual(
      expect.objectContaining({ grant, replayed: true }),
    );
  });

  it('caps a large result at maxToolResultChars and marks it truncated', async () => {
    const server = await serve();
    const tab = executorRequests(server);
    await tab.connect('exe_tab1');
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    const { grant } = (await tab.claim(runId, toolCallId, 'exe_tab1')).body as { grant: string };
    await tab.receipt(runId, toolCallId, grant, accepted);
    await tab.receipt(runId, toolCallId, grant, {
      receiptId: 'rcp_f',
      sequence: 1,
      kind: 'completed',
      result: 'x'.repeat(20_000),
    });
    const result = dataOf(await run.done, 'TOOL_CALL_RESULT')[0];
    expect([result?.content.length, result?.truncated]).toEqual([16_000, true]);
  });

  it('lists pending calls: unclaimed and claimed by the asking executor, not another executor’s', async () => {
    const server = await serve();
    const tab1 = executorRequests(server, 'alice', 'exe_tab1');
    await tab1.connect('exe_tab1');
    await tab1.connect('exe_tab2');
    const { runId, toolCallId } = await startBrowserCall(server, 'page.read_selection {}');
    const pending = await tab1.get('/executors/exe_tab1/pending');
    expect(pending.body).toEqual({
      items: [
        expect.objectContaining({
          runId,
          toolCallId,
          name: 'page.read_selection',
          args: {},
          claimedBy: null,
          isAccepted: false,
        }),
      ],
      nextAfter: null,
    });
    await tab1.claim(runId, toolCallId, 'exe_tab1');
    expect((await tab1.get('/executors/exe_tab1/pending')).body.items).toEqual([
      expect.objectContaining({ toolCallId, claimedBy: 'self' }),
    ]);
    expect((await tab1.get('/executors/exe_tab2/pending')).body.items).toEqual([]);
    const notConnected = await tab1.get('/executors/exe_tab3/pending');
    expect([notConnected.status, notConnected.body.code]).toEqual([409, 'EXECUTOR_NOT_CONNECTED']);
  });

  it('releases an unstarted claim on disconnect so another executor can claim it, never a started one', async () => {
    const server = await serve();
    const tab1 = executorRequests(server, 'alice', 'exe_tab1');
    const tab2 = executorRequests(server, 'alice', 'exe_tab2');
    await tab1.connect('exe_tab1');
    await tab2.connect('exe_tab2');
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    await tab1.claim(runId, toolCallId, 'exe_tab1');
    expect((await tab1.post('/executors/exe_tab1/disconnect')).body).toEqual({ released: [{ runId, toolCallId }] });
    const second = await tab2.claim(runId, toolCallId, 'exe_tab2');
    expect(second.body.replayed).toBe(false);
    await tab2.receipt(runId, toolCallId, String(second.body.grant), accepted);
    expect((await tab2.post('/executors/exe_tab2/disconnect')).body).toEqual({ released: [] });
    await run.until(hasEvent('TOOL_CALL_RECEIPT'));
    expect(dataOf(run.events(), 'TOOL_CALL_RELEASED')).toEqual([
      { toolCallId, executorId: 'exe_tab1', reason: 'disconnected' },
    ]);
  });

  it('refuses a claim before the user approved the call, and dispatches it after', async () => {
    const server = await serve();
    const tab = executorRequests(server);
    await tab.connect('exe_tab1');
    const { runId } = await server.createRun('alice', '/clienttool cart.add {"sku":"SKU-1","quantity":2}', {
      browserTools: PAGE_TOOLS,
    });
    const run = await server.follow(runId);
    const events = await run.until(hasEvent('INTERRUPT_REQUESTED'));
    const [interrupt] = dataOf(events, 'INTERRUPT_REQUESTED');
    const toolCallId = interrupt?.interrupt.toolCallId ?? '';
    const early = await tab.claim(runId, toolCallId, 'exe_tab1');
    expect([early.status, early.body.code, early.body.details]).toEqual([
      409,
      'TOOL_CALL_NOT_CLAIMABLE',
      { status: 'awaiting_approval', reason: 'not_dispatched' },
    ]);
    await tab.post(`/runs/${runId}/interrupts/${interrupt?.interrupt.id}`, {
      decision: 'allow',
      argsDigest: interrupt?.interrupt.argsDigest,
    });
    await run.until(hasEvent('TOOL_CALL_DISPATCHED'));
    expect((await tab.claim(runId, toolCallId, 'exe_tab1')).status).toBe(200);
  });
});

describe('validation and limits', () => {
  async function createWith(server: EngineServer, browserTools: unknown): Promise<Record<string, unknown>> {
    const response = await server.request('/runs', {
      body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'hi' }] }, browserTools },
      headers: { 'idempotency-key': freshKey() },
    });
    expect(response.status).toBe(422);
    return (await response.json()) as Record<string, unknown>;
  }
  const tool = (patch: Record<string, unknown>) => ({ ...PAGE_TOOLS[0], ...patch });

  it('refuses declarations that break a rule, naming the field and limit', async () => {
    const server = await serve();
    expect((await createWith(server, 'x')).details).toEqual({ field: 'browserTools' });
    expect((await createWith(server, [tool({ name: 'bad name' })])).details).toEqual({ field: 'browserTools[0].name' });
    expect((await createWith(server, [tool({}), tool({})])).details).toEqual({ field: 'browserTools[1].name' });
    expect((await createWith(server, [tool({ policy: 'deny' })])).details).toEqual({ field: 'browserTools[0].policy' });
    expect(
      (
        await createWith(
          server,
          Array.from({ length: 17 }, (_, i) => tool({ name: `t${i}` })),
        )
      ).details,
    ).toEqual({
      field: 'browserTools',
      limit: 'maxBrowserTools',
      maxBrowserTools: 16,
      actual: 17,
    });
    const regex = await createWith(server, [tool({ parameters: { type: 'string', pattern: '^(a+)+$' } })]);
    expect([regex.details, regex.detail]).toEqual([
      { field: 'browserTools[0].parameters', reason: 'schema_keyword' },
      'The schema cannot be used: $.pattern (a regular expression) is not allowed.',
    ]);
    const remote = await createWith(server, [tool({ parameters: { $ref: 'https://evil.example/s.json' } })]);
    expect(remote.details).toEqual({ field: 'browserTools[0].parameters', reason: 'schema_keyword' });
    const broken = await createWith(server, [tool({ parameters: { type: 'nonsense' } })]);
    expect(broken.details).toEqual({ field: 'browserTools[0].parameters', reason: 'invalid_schema' });
    const huge = await createWith(server, [tool({ parameters: { type: 'object', description: 'd'.repeat(9_000) } })]);
    expect(huge.details).toEqual(
      expect.objectContaining({
        field: 'browserTools[0].parameters',
        limit: 'maxBrowserToolSchemaBytes',
        maxBrowserToolSchemaBytes: 8192,
      }),
    );
  });

  it('refuses a receipt field past its limit and counts claims against toolClaimsPerMinute', async () => {
    const server = await serve({ canUseExecutor: () => true, limits: { toolClaimsPerMinute: 2 } });
    const tab = executorRequests(server);
    await tab.connect('exe_tab1');
    const { runId, toolCallId } = await startBrowserCall(server, 'page.read_selection {}');
    const { grant } = (await tab.claim(runId, toolCallId, 'exe_tab1')).body as { grant: string };
    const long = await tab.receipt(runId, toolCallId, grant, { ...accepted, message: 'm'.repeat(501) });
    expect([long.status, long.body.details]).toEqual([
      422,
      { field: 'message', limit: 'maxReasonChars', maxReasonChars: 500, actual: 501 },
    ]);
    expect((await tab.claim(runId, toolCallId, 'exe_tab1')).status).toBe(200);
    const limited = await tab.claim(runId, toolCallId, 'exe_tab1');
    expect([limited.status, limited.body.code, limited.body.details]).toEqual([
      429,
      'RATE_LIMITED',
      { limit: 'toolClaimsPerMinute', toolClaimsPerMinute: 2 },
    ]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
