import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataOf } from '../agent-loop/test-support/run-engine-harness.ts';
import type { McpEngineRuns } from './test-support/mcp-engine-runs.ts';

type McpRun = ReturnType<McpEngineRuns['start']>;
import { createMcpEngineRuns } from './test-support/mcp-engine-runs.ts';
import type { McpHttpTestServer } from './test-support/start-mcp-http-server.ts';
import { startMcpHttpServer } from './test-support/start-mcp-http-server.ts';

const resultsOf = (run: { events(): Parameters<typeof dataOf>[0] }) => dataOf(run.events(), 'TOOL_CALL_RESULT');
const answerOf = (run: { handle: { snapshot(): { messages: { content: string }[] } } }) =>
  run.handle.snapshot().messages.at(-1)?.content ?? '';

/** The run's status once it asks for approval or ends, whichever comes first. */
const statusOnceAskedOrEnded = async (run: McpRun): Promise<string> =>
  Promise.race([
    run.until((s) => s.status === 'awaiting_input').then((s) => s.status),
    run.done.then(() => run.handle.snapshot().status),
  ]);

/** What the shop server's tools saw: each hanging call's abort, as the SDK's server reported it. */
interface ServerSide {
  hangStarted: Promise<void>;
  hangAborted: Promise<void>;
}

/** Each session server's `gate` tool, so a test can take it away. */
const gates = new WeakMap<McpServer, RegisteredTool>();

function shopTools(side: { started(): void; aborted(): void }) {
  return (server: McpServer): void => {
    server.registerTool(
      'weather',
      {
        title: 'Weather',
        description: 'The weather in a city.',
        inputSchema: { city: z.string() },
        annotations: { readOnlyHint: true },
      },
      ({ city }) => ({
        content: [
          { type: 'text', text: `Sunny in ${city}.` },
          { type: 'resource', resource: { uri: 'shop://forecast', mimeType: 'text/plain', text: 'Tomorrow: rain.' } },
        ],
      }),
    );
    const gate = server.registerTool(
      'gate',
      { description: 'Opens the gate.', annotations: { destructiveHint: true } },
      () => ({ content: [{ type: 'text', text: 'The gate is open.' }] }),
    );
    gates.set(server, gate);
    server.registerTool(
      'peek',
      {
        description: 'Says it only reads, and that it destroys.',
        annotations: { readOnlyHint: true, destructiveHint: true },
      },
      () => ({ content: [{ type: 'text', text: 'peeked' }] }),
    );
    server.registerTool(
      'hang',
      { description: 'Never answers.', annotations: { readOnlyHint: true } },
      (extra) =>
        new Promise((_resolve, reject) => {
          side.started();
          extra.signal.addEventListener('abort', () => {
            side.aborted();
            reject(new Error('cancelled'));
          });
        }),
    );
  };
}

/** Starts a run of `command` again until its first tool call completes (expect.poll); returns that run. */
async function startUntilCompleted(
  engine: McpEngineRuns,
  command: string,
  timeout: number,
): Promise<ReturnType<McpEngineRuns['start']>> {
  let run = engine.start(command);
  await expect
    .poll(
      async () => {
        await run.done;
        const status = resultsOf(run)[0]?.status;
        if (status !== 'completed') run = engine.start(command);
        return status;
      },
      { timeout, interval: 20 },
    )
    .toBe('completed');
  return run;
}

describe('MCP tools of a Streamable HTTP server (the SDK’s own server transport)', () => {
  let server: McpHttpTestServer;
  let engine: McpEngineRuns;
  let side: ServerSide;
  const start = async (extra: object = {}) => {
    let started: () => void = () => undefined;
    let aborted: () => void = () => undefined;
    side = {
      hangStarted: new Promise((resolve) => (started = resolve)),
      hangAborted: new Promise((resolve) => (aborted = resolve)),
    };
    server = await startMcpHttpServer(shopTools({ started: () => started(), aborted: () => aborted() }));
    engine = createMcpEngineRuns({
      mcpServers: [{ name: 'shop', url: server.url, headers: { authorization: 'Bearer shop-token' }, ...extra }],
    });
  };
  beforeEach(async () => {
    await start();
  });
  afterEach(async () => {
    await engine.close();
    await server.stop().catch(() => undefined);
  });

  it('calls a tool with the entry’s headers; text and an embedded text resource make its result', async () => {
    const run = engine.start('/call shop.weather {"city":"Paris"}');
    await run.done;
    expect(resultsOf(run).map((r) => [r.status, r.content])).toEqual([
      ['completed', 'Sunny in Paris.\n\nTomorrow: rain.'],
    ]);
    expect(new Set(server.authorizations)).toEqual(new Set(['Bearer shop-token']));
  });

  it('marks a destructive tool for approval and runs it only once allowed', async () => {
    const run = engine.start('/call shop.gate {}');
    const waiting = await run.until((s) => s.status === 'awaiting_input');
    const [requested] = dataOf(run.events(), 'INTERRUPT_REQUESTED');
    expect(requested?.interrupt.metadata).toMatchObject({ destructive: true });
    await run.decide(waiting.interrupts[0]?.id ?? '', 'deny');
    await run.done;
    expect(resultsOf(run).map((r) => r.status)).toEqual(['denied']);
  });

  it('asks before a tool whose hints say read-only and destructive, and keeps the entry’s ask over read-only', async () => {
    const both = engine.start('/call shop.peek {}');
    expect(await statusOnceAskedOrEnded(both)).toBe('awaiting_input');
    expect(dataOf(both.events(), 'INTERRUPT_REQUESTED')[0]?.interrupt.metadata).toMatchObject({ destructive: true });
    await both.cancel('user');
    await both.done;
    await engine.close();
    await server.stop();
    await start({ policy: { weather: 'ask' } });
    const readOnly = engine.start('/call shop.weather {"city":"Rome"}');
    expect(await statusOnceAskedOrEnded(readOnly)).toBe('awaiting_input');
    await readOnly.cancel('user');
    await readOnly.done;
  });

  it('keeps a run’s tool list when the server changes it; later runs get the new list', async () => {
    const asking = engine.start('/call shop.gate {}');
    const waiting = await asking.until((s) => s.status === 'awaiting_input');
    server.changeTools((mcp) => {
      gates.get(mcp)?.remove();
      mcp.registerTool('added', { description: 'New.', annotations: { readOnlyHint: true } }, () => ({
        content: [{ type: 'text', text: 'added works' }],
      }));
    });
    // The client learns of the change from the server's notification: call until it has.
    const later = await startUntilCompleted(engine, '/call shop.added {}', 5_000);
    expect(resultsOf(later).map((r) => [r.status, r.content])).toEqual([['completed', 'added works']]);
    const gone = engine.start('/call shop.gate {}');
    await gone.done;
    expect(answerOf(gone)).toContain('There is no tool named `shop.gate` here');
    // The waiting run still has shop.gate: once allowed, its call goes to the server, which no longer knows it.
    await asking.decide(waiting.interrupts[0]?.id ?? '', 'allow');
    await asking.done;
    const [result] = resultsOf(asking);
    expect([result?.status, result?.content]).toEqual(['failed', expect.stringContaining('gate')]);
  });

  it('sends MCP cancellation when the run is stopped mid-call and ends the call unknown', async () => {
    const run = engine.start('/call shop.hang {}');
    await side.hangStarted;
    await run.cancel('user');
    await side.hangAborted;
    await run.done;
    expect(resultsOf(run).map((r) => r.status)).toEqual(['unknown']);
    expect(run.handle.snapshot().outcome).toMatchObject({ type: 'cancelled' });
  });

  it('ends a call that outlives its timeout unknown, cancels it on the server, and the run goes on', async () => {
    await engine.close();
    await server.stop();
    await start({ callTimeoutMs: 300 });
    const run = engine.start('/call shop.hang {}');
    await side.hangAborted;
    await run.done;
    const [result] = resultsOf(run);
    expect([result?.status, result?.content]).toEqual([
      'unknown',
      'The MCP server "shop" gave no answer (timed out); whether the tool ran is unknown.',
    ]);
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('fails calls clearly while the server is down and reconnects once it is back', async () => {
    const first = engine.start('/call shop.weather {"city":"Oslo"}');
    await first.done;
    await server.stop();
    const down = engine.start('/call shop.weather {"city":"Oslo"}');
    await down.done;
    expect(resultsOf(down).map((r) => [r.status, r.content])).toEqual([
      ['failed', 'The MCP server "shop" is not reachable right now, so the tool was not run.'],
    ]);
    await server.restart();
    // Reconnecting takes a few tries: call until the server answers again.
    const back = await startUntilCompleted(engine, '/call shop.weather {"city":"Oslo"}', 10_000);
    expect(resultsOf(back).map((r) => r.status)).toEqual(['completed']);
    expect(engine.logs.some((entry) => entry.message.startsWith('MCP server "shop" disconnected'))).toBe(true);
  });
});

describe('an MCP server that never answers', () => {
  it('gives up connecting after its connect timeout; runs go on without its tools', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const engine = createMcpEngineRuns({
      mcpServers: [{ name: 'silent', url: `http://127.0.0.1:${port}/mcp`, connectTimeoutMs: 200 }],
    });
    try {
      const run = engine.start('/call silent.anything {}');
      await run.done;
      expect(run.handle.snapshot().status).toBe('completed');
      expect(answerOf(run)).toContain('There is no tool named `silent.anything` here');
      expect(engine.logs.some((entry) => entry.message === 'MCP server "silent" could not be reached')).toBe(true);
    } finally {
      await engine.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
