import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../../core/client/agent-client.ts';
import type { AgentClientHandle } from '../../core/client/agent-client-types.ts';
import type { EventEnvelope } from '../../core/protocol.ts';
import { attachToolRunner } from '../../core/tools/attach-tool-runner.ts';
import type { ToolRunner } from '../../core/tools/tool-runner-types.ts';
import { spawnDurableDemoServer } from '../../../test/support/durable-demo-server.ts';
import { findFreePort } from '../../../test/support/spawn-server.ts';
import type { SpawnedServer } from '../../../test/support/spawn-server.ts';
import { isSettledState, waitForState } from '../../../test/support/wait-for-state.ts';

const COOKIE = 'agent_chat_demo=demo_restart_browser_tool_1';

/** The demo user's fetch: the product's login cookie on every request (Node's fetch keeps no cookies). */
const fetchAsDemoUser: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('cookie', COOKIE);
  return fetch(input, { ...init, headers });
};

const t0 = Date.now();
const timeline: string[] = [];
const mark = (what: string): void => {
  timeline.push(`${String(Date.now() - t0).padStart(6)} ms  ${what}`);
};

describe('a browser tool call survives a restart of the server (real processes on one SQLite file)', () => {
  let server: SpawnedServer | null = null;
  let client: AgentClientHandle | null = null;
  let runner: ToolRunner | null = null;
  let folder = '';
  afterAll(async () => {
    await runner?.revoke();
    client?.dispose();
    await server?.kill('SIGTERM');
    if (folder !== '') await rm(folder, { recursive: true, force: true });
    console.log(`browser tool restart timeline:\n${timeline.join('\n')}`);
  });

  it('keeps the dispatch, claim and grant: the receipt sent after kill -9 and a restart completes the call once', async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-restart-tool-'));
    const port = await findFreePort();
    const start = () => spawnDurableDemoServer({ port, folder });
    server = await start();
    mark(`server 1 listening on ${server.url}`);

    const events: EventEnvelope[] = [];
    client = createAgentClient({
      endpoint: `${server.url}/api/agent`,
      fetch: fetchAsDemoUser,
      random: () => 0.5,
      backoff: { baseMs: 100, capMs: 500 },
      onEvent: (event) => events.push(event),
    });
    let release: (value: { count: number }) => void = () => undefined;
    const held = new Promise<{ count: number }>((resolve) => (release = resolve));
    let handlerRuns = 0;
    runner = attachToolRunner(client, {
      handlers: {
        'cart.count': {
          description: "Counts the items in the user's cart.",
          parameters: { type: 'object', properties: {}, additionalProperties: false },
          policy: 'allow',
          run: () => {
            handlerRuns += 1;
            return held;
          },
        },
      },
    });
    await client.bootstrap();
    await runner.ready;
    await client.send('/clienttool cart.count {}');
    const running = await waitForState(
      client,
      (s) => s.toolCalls[0]?.executor?.acceptedAt !== undefined,
      'the browser call to start in the runner',
      30_000,
    );
    const toolCallId = running.toolCalls[0]?.toolCallId ?? '';
    expect(running.toolCalls[0]?.executor).toEqual(
      expect.objectContaining({ kind: 'browser', executorId: runner.executorId() }),
    );
    mark(`run ${running.run?.runId}: ${toolCallId} claimed and accepted, the handler holds`);

    await server.kill('SIGKILL');
    mark('server 1 killed (SIGKILL)');
    server = await start();
    mark('server 2 listening on the same port and file');

    release({ count: 3 });
    const ended = await waitForState(client, isSettledState, 'the run to end after the restart', 30_000);
    mark(`run ended ${ended.run?.status}`);

    expect(ended.run?.status).toBe('completed');
    expect(handlerRuns).toBe(1);
    expect(ended.toolCalls.map((call) => [call.toolCallId, call.status, call.result?.content])).toEqual([
      [toolCallId, 'completed', '{"count":3}'],
    ]);
    expect(ended.messages.at(-1)?.content).toBe('The browser tool cart.count returned: {"count":3}');
    // Every event reached the client once, in order, across the restart.
    const seen = events;
    const receipts = seen.filter((e): e is EventEnvelope<'TOOL_CALL_RECEIPT'> => e.type === 'TOOL_CALL_RECEIPT');
    expect(receipts.map((e) => e.data.kind)).toEqual(['accepted', 'completed']);
    expect(seen.filter((e) => e.type === 'TOOL_CALL_DISPATCHED')).toHaveLength(1);
    expect(seen.filter((e) => e.type === 'TOOL_CALL_CLAIMED')).toHaveLength(1);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => index + 1));
    mark('one dispatch, one claim, accepted + completed, handler ran once, the answer carries its result');
  }, 90_000);
});
