import { afterEach, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import { isSettledState, waitForState } from '../../../test/support/wait-for-state.ts';
import type { AgentClientHandle } from '../client/agent-client-types.ts';
import { createAgentClient } from '../client/agent-client.ts';
import type { EventEnvelope } from '../protocol.ts';
import { attachToolRunner } from './attach-tool-runner.ts';
import { BusinessCancelled } from './business-errors.ts';
import type { ToolReceipt, ToolReceiptStore } from './receipt-store.ts';
import { createMemoryReceiptStore } from './receipt-store.ts';
import type { BrowserTool, ToolRunner, ToolRunnerDiagnostic, ToolRunnerOptions } from './tool-runner-types.ts';

let server: ReferenceServer | undefined;
const clients: AgentClientHandle[] = [];
const runners: ToolRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.revoke()));
  for (const client of clients.splice(0)) client.dispose();
  await server?.close();
  server = undefined;
});

const EMPTY_OBJECT = { type: 'object', properties: {}, additionalProperties: false };

async function serve(options: Parameters<typeof startReferenceServer>[0] = { canUseExecutor: () => true }) {
  server = await startReferenceServer(options);
  return server;
}

function createClient(): AgentClientHandle {
  const client = createAgentClient({ endpoint: `http://127.0.0.1:${server?.port}/api/agent`, random: () => 0 });
  clients.push(client);
  return client;
}

function attach(client: AgentClientHandle, options: ToolRunnerOptions): ToolRunner {
  const runner = attachToolRunner(client, options);
  runners.push(runner);
  return runner;
}

/** The run's log as the server stored it. */
async function logOf(runId: string): Promise<EventEnvelope[]> {
  return (await server?.handler.storage.readEvents(runId, 0)) ?? [];
}

const dataOfType = (events: readonly EventEnvelope[], type: string) =>
  events.filter((event) => event.type === type).map((event) => event.data as Record<string, unknown>);

/** A store that records each write (with the receipt's state) beside the real memory store. */
function recordingStore(journal: string[]): ToolReceiptStore {
  const inner = createMemoryReceiptStore();
  const note = (operation: string, receipt?: ToolReceipt) =>
    journal.push(
      receipt === undefined
        ? operation
        : `${operation} ${receipt.state}${receipt.final === undefined ? '' : ` ${receipt.final.kind}`}`,
    );
  return {
    ...inner,
    create: async (receipt) => {
      note('create', receipt);
      return inner.create(receipt);
    },
    put: async (receipt) => {
      note('put', receipt);
      return inner.put(receipt);
    },
    delete: async (toolCallId) => {
      note('delete');
      return inner.delete(toolCallId);
    },
  };
}

describe('attachToolRunner against the reference server', () => {
  it('runs a dispatched call once, storing its receipt before each step and removing it only after the server acknowledged it', async () => {
    await serve();
    const client = createClient();
    const journal: string[] = [];
    const store = recordingStore(journal);
    const calls: Array<{ args: unknown; stored: string | undefined }> = [];
    const tool: BrowserTool = {
      description: 'Reads the selection.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      async run(args, context) {
        calls.push({ args, stored: (await store.get(context.toolCallId))?.state });
        journal.push('handler');
        return { text: 'Selected words' };
      },
    };
    // Every receipt answer is logged when it arrives, between the store's writes.
    const request = client.request.bind(client);
    client.request = async (call) => {
      const answer = await request(call);
      if (call.path.endsWith('/receipts'))
        journal.push(`ack ${(JSON.parse(call.body ?? '{}') as { kind: string }).kind}`);
      return answer as never;
    };
    const diagnostics: ToolRunnerDiagnostic[] = [];
    const runner = attach(client, {
      handlers: { 'page.read_selection': tool },
      receipts: store,
      onDiagnostic: (_call, state) => diagnostics.push(state),
    });
    await client.bootstrap();
    await runner.ready;
    const { runId } = await client.send('/clienttool page.read_selection {}');
    const state = await waitForState(client, isSettledState, 'the run to finish');

    expect(calls).toEqual([{ args: {}, stored: 'running' }]);
    expect(journal).toEqual([
      'create claimed',
      'ack accepted',
      'put running',
      'handler',
      'put final completed',
      'ack completed',
      'delete',
    ]);
    expect(diagnostics).toEqual(['claimed', 'running', 'delivered']);
    expect(await store.list()).toEqual([]);
    const toolCallId = state.toolCalls[0]?.toolCallId ?? '';
    expect(state.toolRunner).toEqual({
      executorId: runner.executorId(),
      calls: { [toolCallId]: 'done' },
      notes: { [toolCallId]: 'Completed in this browser' },
    });
    expect(state.toolCalls[0]).toEqual(
      expect.objectContaining({
        status: 'completed',
        result: expect.objectContaining({ content: '{"text":"Selected words"}' }),
      }),
    );
    expect(state.messages.at(-1)?.content).toBe(
      'The browser tool page.read_selection returned: {"text":"Selected words"}',
    );
    const log = await logOf(runId);
    expect(dataOfType(log, 'RUN_STARTED')[0]?.browserTools).toEqual([
      { name: 'page.read_selection', description: 'Reads the selection.', parameters: EMPTY_OBJECT, policy: 'allow' },
    ]);
    expect(dataOfType(log, 'TOOL_CALL_RECEIPT').map((receipt) => receipt.kind)).toEqual(['accepted', 'completed']);
  });

  it('two pages of one user: exactly one runs the handler, the other shows the call running elsewhere', async () => {
    await serve();
    const first = createClient();
    const second = createClient();
    let runs = 0;
    let release: () => void = () => undefined;
    const tool: BrowserTool = {
      description: 'Reads the selection.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      run: () => {
        runs += 1;
        return new Promise((resolve) => {
          release = () => resolve('done');
        });
      },
    };
    const runnerA = attach(first, { handlers: { 'page.read_selection': tool } });
    const runnerB = attach(second, { handlers: { 'page.read_selection': tool } });
    await Promise.all([first.bootstrap(), second.bootstrap()]);
    await Promise.all([runnerA.ready, runnerB.ready]);
    const { runId } = await first.send('/clienttool page.read_selection {}');
    await second.connect(runId);
    const phases = (client: AgentClientHandle) => Object.values(client.getState().toolRunner?.calls ?? {});
    await waitForState(
      first,
      () => runs === 1 && phases(first).concat(phases(second)).includes('running'),
      'one page running it',
    );
    await waitForState(
      second,
      (state) => state.toolCalls[0]?.executor?.acceptedAt !== undefined,
      'the other page to see it started',
    );
    // Give the second page every chance to claim too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toBe(1);
    const [runningPage, otherPage] = phases(first).includes('running') ? [first, second] : [second, first];
    expect(phases(otherPage)).toEqual(['elsewhere']);
    expect(runningPage.getState().toolCalls[0]?.executor?.executorId).not.toBe(
      otherPage.getState().toolRunner?.executorId,
    );
    release();
    await waitForState(first, isSettledState, 'the run to finish');
    expect(runs).toBe(1);
  });

  it('Stop aborts the handler: cancelled when it confirms with BusinessCancelled', async () => {
    await serve();
    const client = createClient();
    const seen: string[] = [];
    const tool: BrowserTool = {
      description: 'Waits for its signal.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      run: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            seen.push(`aborted: ${String(signal.reason)}`);
            reject(new BusinessCancelled('Stopped before reading anything.'));
          });
        }),
    };
    const runner = attach(client, { handlers: { 'page.read_selection': tool } });
    await client.bootstrap();
    await runner.ready;
    await client.send('/clienttool page.read_selection {}');
    await waitForState(
      client,
      (state) => Object.values(state.toolRunner?.calls ?? {}).includes('running'),
      'the handler to run',
    );
    await client.cancel();
    const state = await waitForState(client, isSettledState, 'the run to end');
    expect(seen).toEqual(['aborted: cancelled']);
    expect(state.toolCalls[0]).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        result: expect.objectContaining({ content: 'Stopped before reading anything.' }),
      }),
    );
    expect(state.run?.status).toBe('cancelled');
  });

  it('Stop with a handler that does not confirm ends the call unknown', async () => {
    await serve({ canUseExecutor: () => true, engineLimits: { toolStopGraceMs: 200 } });
    const client = createClient();
    const tool: BrowserTool = {
      description: 'Never ends.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      run: () => new Promise(() => undefined),
    };
    const runner = attach(client, { handlers: { 'page.read_selection': tool } });
    await client.bootstrap();
    await runner.ready;
    await client.send('/clienttool page.read_selection {}');
    await waitForState(client, (state) => state.toolCalls[0]?.status === 'running', 'the handler to run');
    await client.cancel();
    const state = await waitForState(client, isSettledState, 'the run to end');
    expect(state.toolCalls[0]?.status).toBe('unknown');
  });

  it('an unexpected exception is never retried: the call needs reconciliation and ends unknown', async () => {
    await serve();
    const client = createClient();
    let runs = 0;
    const tool: BrowserTool = {
      description: 'Breaks.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      run: () => {
        runs += 1;
        throw new TypeError('selection is null');
      },
    };
    const runner = attach(client, { handlers: { 'page.read_selection': tool } });
    await client.bootstrap();
    await runner.ready;
    await client.send('/clienttool page.read_selection {}');
    const state = await waitForState(client, isSettledState, 'the run to end');
    expect(runs).toBe(1);
    const [call] = state.toolCalls;
    expect([call?.status, call?.executor?.reconciliation]).toEqual(['unknown', 'required']);
    expect(state.toolRunner?.calls[call?.toolCallId ?? '']).toBe('needs_reconciliation');
  });

  it('authorize can refuse a call: it is never claimed and expires', async () => {
    await serve({ canUseExecutor: () => true, engineLimits: { browserToolTimeoutMs: 300 } });
    const client = createClient();
    const asked: string[] = [];
    const tool: BrowserTool = {
      description: 'Never allowed.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      run: () => 'ran',
    };
    const runner = attach(client, {
      handlers: { 'page.read_selection': tool },
      authorize: (call, phase) => {
        asked.push(`${call.name} ${phase}`);
        return false;
      },
    });
    await client.bootstrap();
    await runner.ready;
    const { runId } = await client.send('/clienttool page.read_selection {}');
    const state = await waitForState(client, isSettledState, 'the run to end');
    expect(asked).toEqual(['page.read_selection execute']);
    expect(state.toolCalls[0]?.status).toBe('expired');
    expect(dataOfType(await logOf(runId), 'TOOL_CALL_CLAIMED')).toEqual([]);
  });

  it('revokes itself when the identity changes: the handler is aborted and no new call is claimed', async () => {
    await serve();
    const client = createClient();
    const aborted: string[] = [];
    const tool: BrowserTool = {
      description: 'Waits.',
      parameters: EMPTY_OBJECT,
      policy: 'allow',
      run: (_args, { signal }) =>
        new Promise(() => signal.addEventListener('abort', () => aborted.push(String(signal.reason)))),
    };
    const runner = attach(client, { handlers: { 'page.read_selection': tool } });
    await client.bootstrap();
    await runner.ready;
    await client.send('/clienttool page.read_selection {}');
    await waitForState(client, (state) => state.toolCalls[0]?.status === 'running', 'the handler to run');
    client.resetIdentity();
    await waitForState(client, () => aborted.length === 1, 'the handler to be aborted');
    expect(aborted).toEqual(['revoked']);
    expect(runner.isRevoked()).toBe(true);
    expect(client.getState().toolRunner).toBeNull();
  });

  it('stays idle against a server without browser tools: nothing is stored or connected', async () => {
    await serve({});
    const client = createClient();
    const runner = attach(client, {
      handlers: { 'page.read_selection': { description: 'x', parameters: EMPTY_OBJECT, run: () => 'x' } },
    });
    await client.bootstrap();
    await runner.ready;
    const { runId } = await client.send('hello');
    await waitForState(client, isSettledState, 'the run to end');
    expect(runner.executorId()).toBeNull();
    expect(dataOfType(await logOf(runId), 'RUN_STARTED')[0]?.browserTools).toBeUndefined();
    expect(client.getState().toolRunner).toBeNull();
  });
});
