import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openRedisStorage } from '../storage/open-redis-storage.ts';
import { openSqliteStorage } from '../storage/sqlite-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';

/** One turn on an AG-UI thread, read to its end: our run and session from `RUN_STARTED.metadata`. */
async function turn(
  server: TestServer,
  threadId: string,
  agUiRunId: string,
): Promise<{ status: number; runId?: string; sessionId?: string; types: string[] }> {
  const response = await fetch(`${server.baseUrl}/api/agent/ag-ui`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-test-user': 'alice' },
    body: JSON.stringify({
      threadId,
      runId: agUiRunId,
      messages: [{ id: `m-${agUiRunId}`, role: 'user', content: `Hello from ${agUiRunId}` }],
      tools: [],
      context: [],
    }),
  });
  const text = await response.text();
  const events = [...text.matchAll(/^data: (.*)$/gm)].map(
    (match) => JSON.parse(match[1] as string) as { type: string; metadata?: Record<string, Record<string, string>> },
  );
  const ours = events.find((event) => event.type === 'RUN_STARTED')?.metadata?.['agent-chat'];
  return {
    status: response.status,
    ...(ours === undefined ? {} : { runId: ours['runId'], sessionId: ours['sessionId'] }),
    types: events.map((event) => event.type),
  };
}

const servers: TestServer[] = [];
const serve = async (storage: AgentStorage): Promise<TestServer> => {
  const server = await startTestServer({ engine: createScriptedTestEngine(), storage });
  servers.push(server);
  return server;
};
const stop = async (server: TestServer): Promise<void> => {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
  await server.handler.storage.close();
};
afterEach(async () => {
  for (const server of [...servers]) await stop(server);
});

describe('AG-UI threads and runs kept in the storage', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-ag-ui-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('a thread goes on in its session after a restart on the same SQLite file', async () => {
    const path = join(folder, 'agent-chat.sqlite');
    const before = await serve(openSqliteStorage({ path }));
    const first = await turn(before, 'thread-kept', 'agui-run-1');
    expect(first.types.at(-1)).toBe('RUN_FINISHED');
    await stop(before);
    const after = await serve(openSqliteStorage({ path }));
    const second = await turn(after, 'thread-kept', 'agui-run-2');
    expect(second.types.at(-1)).toBe('RUN_FINISHED');
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.runId).not.toBe(first.runId);
  });

  it('a thread started on one process goes on in its session on another (Redis)', async () => {
    const url = `${inject('redisUrl')}/8`;
    const raw = createClient({ url });
    await raw.connect();
    await raw.flushDb();
    await raw.close();
    const a = await serve(await openRedisStorage({ url }));
    const b = await serve(await openRedisStorage({ url }));
    const first = await turn(a, 'thread-shared', 'agui-run-a');
    const second = await turn(b, 'thread-shared', 'agui-run-b');
    expect([first.types.at(-1), second.types.at(-1)]).toEqual(['RUN_FINISHED', 'RUN_FINISHED']);
    expect(second.sessionId).toBe(first.sessionId);
  });

  it('a new turn’s idempotency record is committed with its run: a retry replays that run, never makes another', async () => {
    const sqlite = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
    // The process dies (its write fails) if anything completes the record after the run was created.
    const storage: AgentStorage = {
      ...sqlite,
      completeIdempotency: () => Promise.reject(new Error('the process died before completing the record')),
    };
    const server = await serve(storage);
    const first = await turn(server, 'thread-once', 'agui-run-once');
    expect([first.status, first.types.at(-1)]).toEqual([200, 'RUN_FINISHED']);
    const retry = await turn(server, 'thread-once', 'agui-run-once');
    expect([retry.status, retry.runId, retry.types.at(-1)]).toEqual([200, first.runId, 'RUN_FINISHED']);
    expect(await sqlite.counts()).toEqual({ sessions: 1, runs: 1 });
  });

  it('a turn whose thread was not bound after its commit binds it on the retry, so the thread keeps its session', async () => {
    const sqlite = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
    let isDown = true;
    // The first binding fails (the process stops right after the commit); later ones work.
    const storage: AgentStorage = {
      ...sqlite,
      bindAgUiThread: (binding) => {
        if (!isDown) return sqlite.bindAgUiThread(binding);
        isDown = false;
        return Promise.reject(new Error('the process stopped before binding the thread'));
      },
    };
    const server = await serve(storage);
    expect((await turn(server, 'thread-healed', 'agui-run-1')).status).toBe(500);
    const retry = await turn(server, 'thread-healed', 'agui-run-1');
    expect(retry.types.at(-1)).toBe('RUN_FINISHED');
    const next = await turn(server, 'thread-healed', 'agui-run-2');
    expect(next.sessionId).toBe(retry.sessionId);
    expect(await sqlite.counts()).toEqual({ sessions: 1, runs: 2 });
  });
});
