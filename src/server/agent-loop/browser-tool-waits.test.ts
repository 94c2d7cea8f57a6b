import { afterEach, describe, expect, it } from 'vitest';
import type { EngineServer } from './test-support/start-engine-server.ts';
import { startEngineServer } from './test-support/start-engine-server.ts';
import { assertEventInvariants } from './test-support/assert-event-invariants.ts';
import { dataOf } from './test-support/run-engine-harness.ts';
import { executorRequests, hasEvent, startBrowserCall } from '../executors/test-support/browser-tool-requests.ts';
import type { EngineLimits, ToolCallInfo } from './engine-options.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(limits: Partial<EngineLimits> = {}, canExecuteTool?: (call: ToolCallInfo) => boolean) {
  const server = await startEngineServer({
    engine: {
      limits: { browserToolTimeoutMs: 400, toolStopGraceMs: 400, ...limits },
      ...(canExecuteTool === undefined ? {} : { canExecuteTool: (_subject, call) => canExecuteTool(call) }),
    },
    handler: { canUseExecutor: () => true },
  });
  open.push(server);
  return server;
}

/** Claims the call as `exe_tab1` and sends `accepted`; returns the grant. */
async function claimAndAccept(server: EngineServer, runId: string, toolCallId: string): Promise<string> {
  const tab = executorRequests(server);
  await tab.connect('exe_tab1');
  const { grant } = (await tab.claim(runId, toolCallId, 'exe_tab1')).body as { grant: string };
  const accepted = await tab.receipt(runId, toolCallId, grant, { receiptId: 'rcp_a', sequence: 0, kind: 'accepted' });
  expect(accepted.body).toEqual(expect.objectContaining({ accepted: true }));
  expect(accepted.body.late).toBeUndefined();
  return grant;
}

describe('the wait for a browser executor', () => {
  it('ends a call nobody claimed as expired after browserToolTimeoutMs, and a late claim holder hears late', async () => {
    const server = await serve();
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    const tab = executorRequests(server);
    await tab.connect('exe_tab1');
    await run.until(hasEvent('TOOL_CALL_RESULT'));
    const events = await run.done;
    assertEventInvariants(events);
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({
        status: 'expired',
        content: 'No browser ran the tool before its deadline, so it was not run.',
      }),
    );
    const late = await tab.claim(runId, toolCallId, 'exe_tab1');
    expect([late.status, late.body.code]).toEqual([409, 'TOOL_CALL_NOT_CLAIMABLE']);
  });

  it('keeps how an expired call was governed in its result: canExecuteTool allowed it', async () => {
    const server = await serve({}, () => true);
    const { run } = await startBrowserCall(server, 'page.read_selection {}');
    const events = await run.done;
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({ status: 'expired', evidence: [{ source: 'can_execute', decision: 'allow' }] }),
    );
  });

  it('ends a started call that never confirmed as unknown, and acknowledges its final receipt as late', async () => {
    const server = await serve();
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    const grant = await claimAndAccept(server, runId, toolCallId);
    const events = await run.done;
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]?.status).toBe('unknown');
    const late = await executorRequests(server).receipt(runId, toolCallId, grant, {
      receiptId: 'rcp_f',
      sequence: 1,
      kind: 'completed',
      result: 'too late',
    });
    expect(late.body).toEqual({ accepted: true, late: true });
  });

  it('ends a started call at once as unknown when its executor reports reconciliation_required', async () => {
    const server = await serve({ browserToolTimeoutMs: 60_000 });
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    const grant = await claimAndAccept(server, runId, toolCallId);
    const tab = executorRequests(server);
    const report = { runId, toolCallId, code: 'reconciliation_required', message: 'The page was reloaded mid-run.' };
    expect((await tab.report('exe_tab1', grant, report)).body).toEqual({
      accepted: true,
      eventSeq: expect.any(Number),
    });
    expect((await tab.report('exe_tab1', grant, report)).body).toEqual({ accepted: true, replayed: true });
    const events = await run.done;
    assertEventInvariants(events);
    expect(dataOf(events, 'TOOL_CALL_REPORTED')).toEqual([
      {
        toolCallId,
        executorId: 'exe_tab1',
        code: 'reconciliation_required',
        message: 'The page was reloaded mid-run.',
      },
    ]);
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({
        status: 'unknown',
        content: 'The browser could not confirm what the tool did; its outcome is unknown.',
      }),
    );
    const after = await tab.receipt(runId, toolCallId, grant, { receiptId: 'rcp_f', sequence: 1, kind: 'completed' });
    expect(after.body).toEqual({ accepted: true, late: true });
  });

  it('on Stop tells the executor and ends the call cancelled when it confirms within the grace', async () => {
    const server = await serve({ browserToolTimeoutMs: 60_000, toolStopGraceMs: 5_000 });
    const { runId, toolCallId, run } = await startBrowserCall(server, 'page.read_selection {}');
    const grant = await claimAndAccept(server, runId, toolCallId);
    const tab = executorRequests(server);
    await tab.post(`/runs/${runId}/cancel`, {});
    const progress = await tab.receipt(runId, toolCallId, grant, { receiptId: 'rcp_p', sequence: 1, kind: 'progress' });
    expect(progress.body.cancelRequested).toBe(true);
    await tab.receipt(runId, toolCallId, grant, {
      receiptId: 'rcp_c',
      sequence: 2,
      kind: 'cancelled',
      message: 'Stopped before adding anything.',
    });
    const events = await run.done;
    assertEventInvariants(events);
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({ status: 'cancelled', content: 'Stopped before adding anything.' }),
    );
    expect(dataOf(events, 'RUN_FINISHED')[0]?.outcome).toEqual({ type: 'cancelled', reason: 'cancelled' });
  });

  it('on Stop ends a started call unknown when the executor does not confirm, and an unstarted one cancelled', async () => {
    const server = await serve({ browserToolTimeoutMs: 60_000, toolStopGraceMs: 100 });
    const started = await startBrowserCall(server, 'page.read_selection {}');
    await claimAndAccept(server, started.runId, started.toolCallId);
    await executorRequests(server).post(`/runs/${started.runId}/cancel`, {});
    expect(dataOf(await started.run.done, 'TOOL_CALL_RESULT')[0]?.status).toBe('unknown');

    const waiting = await startBrowserCall(server, 'page.read_selection {}', 'bob');
    await executorRequests(server, 'bob').post(`/runs/${waiting.runId}/cancel`, {});
    expect(dataOf(await waiting.run.done, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({ status: 'cancelled', content: 'The run ended before the tool ran.' }),
    );
  });

  it('governs a browser call like a server tool: canExecuteTool sees it as a browser call and can deny it', async () => {
    const seen: ToolCallInfo[] = [];
    const server = await serve({}, (call) => {
      seen.push(call);
      return false;
    });
    const { runId } = await server.createRun('alice', '/clienttool page.read_selection {}', {
      browserTools: [
        {
          name: 'page.read_selection',
          description: 'Reads the selection.',
          parameters: { type: 'object', properties: {}, additionalProperties: false },
          policy: 'allow',
        },
      ],
    });
    const events = await (await server.follow(runId)).done;
    expect(seen.map((call) => [call.name, call.executorKind])).toEqual([['page.read_selection', 'browser']]);
    expect(events.some((event) => event.type === 'TOOL_CALL_DISPATCHED')).toBe(false);
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]?.status).toBe('denied');
  });

  it('rejects arguments that do not match the declared schema before dispatching', async () => {
    const server = await serve();
    const { runId } = await server.createRun('alice', '/clienttool cart.add {"sku":""}', {
      browserTools: [
        {
          name: 'cart.add',
          description: 'Adds to the cart.',
          parameters: {
            type: 'object',
            properties: { sku: { type: 'string', minLength: 1 }, quantity: { type: 'integer' } },
            required: ['sku', 'quantity'],
          },
        },
      ],
    });
    const events = await (await server.follow(runId)).done;
    expect(dataOf(events, 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({
        status: 'failed',
        content:
          "The arguments do not match the tool's schema, so it was not run: $.quantity is required; $.sku must have at least 1 characters.",
      }),
    );
  });

  it('ignores a browser tool named like a server tool, with a notice', async () => {
    const server = await serve();
    const { runId } = await server.createRun('alice', 'hello', {
      browserTools: [
        { name: 'orders.lookup', description: 'Shadows the server tool.', parameters: { type: 'object' } },
      ],
    });
    const events = await (await server.follow(runId)).done;
    expect(dataOf(events, 'NOTICE')).toEqual([
      {
        level: 'warning',
        code: 'BROWSER_TOOL_IGNORED',
        message: 'The browser tool "orders.lookup" is not offered: another tool has this name.',
      },
    ]);
  });
});
