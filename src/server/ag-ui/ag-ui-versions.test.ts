import { afterEach, describe, expect, it } from 'vitest';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import type { AgentInfo } from '../agent-info.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const V1: AgentInfo = { agentId: 'agt_support', versionId: 'agv_1', name: 'Support' };

async function serve(storage: AgentStorage, agent: AgentInfo): Promise<EngineServer> {
  const server = await startEngineServer({ handler: { storage, agent } });
  open.push(server);
  return server;
}

/** One AG-UI turn on `threadId`, read to the end of its stream: the events as JSON objects. */
async function turn(server: EngineServer, runId: string, threadId: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${server.baseUrl}/api/agent/ag-ui`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-test-user': 'alice' },
    body: JSON.stringify({
      threadId,
      runId,
      messages: [{ id: `m-${runId}`, role: 'user', content: '/echo hi' }],
      tools: [],
      context: [],
    }),
  });
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('AG-UI threads and agent versions', () => {
  it('a thread on a session pinned to an earlier, still served version goes on after a new version is published', async () => {
    const storage = createMemoryStorage();
    const first = await serve(storage, V1);
    const opened = await turn(first, 'run-first-0001', 'thread-pinned');
    const started = opened.find((event) => event.type === 'RUN_STARTED') as {
      metadata: Record<string, { sessionId: string }>;
    };
    const sessionId = started.metadata['agent-chat']?.sessionId as string;
    await first.close();
    open.splice(0);

    const second = await serve(storage, { ...V1, versionId: 'agv_2', servedVersionIds: ['agv_1'] });
    // The client adopted our session id as its thread id (docs/ag-ui.md), so the second process finds it.
    const continued = await turn(second, 'run-second-0001', sessionId);
    expect(continued.map((event) => event.type).filter((type) => String(type).startsWith('RUN_'))).toEqual([
      'RUN_STARTED',
      'RUN_FINISHED',
    ]);
    expect((await storage.getSession(sessionId))?.agentVersionId).toBe('agv_1');
  });
});
