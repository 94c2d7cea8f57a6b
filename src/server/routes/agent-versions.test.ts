import { afterEach, describe, expect, it } from 'vitest';
import { createListModel } from '../agent-loop/test-support/list-model.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import type { ModelRequest } from '../models/model-adapter.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import { freshKey } from '../test-support/start-test-server.ts';
import type { AgentInfo } from '../agent-info.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const ANSWER = [
  { type: 'text' as const, delta: 'Done.' },
  { type: 'finish' as const, reason: 'stop' as const },
];
const V1: AgentInfo = { agentId: 'agt_support', versionId: 'agv_1', name: 'Support' };
const V2: AgentInfo = { ...V1, versionId: 'agv_2', servedVersionIds: ['agv_1'] };

/** A server publishing `agent` on `storage`, whose engine has a product prompt per version. */
async function serve(storage: AgentStorage, agent: AgentInfo) {
  const model = createListModel([ANSWER]);
  const server = await startEngineServer({
    engine: {
      model,
      tools: [],
      productPrompt: 'Prompt of version 2.',
      versions: { agv_1: { productPrompt: 'Prompt of version 1.' } },
    },
    handler: { storage, agent },
  });
  open.push(server);
  return { server, model };
}

async function create(
  server: EngineServer,
  body: { agentVersionId: string; sessionId?: string },
  key = freshKey(),
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.request('/runs', {
    body: { ...body, input: { content: [{ type: 'text', text: 'Hello' }] } },
    headers: { 'idempotency-key': key },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const productPromptOf = (request: ModelRequest | undefined): string | undefined =>
  request?.messages.find((m) => m.role === 'system' && m.layer === 'product')?.content;

describe('agent versions', () => {
  it('a session keeps the version it was created with after a new one is published; new sessions get the new one', async () => {
    const storage = createMemoryStorage();
    const first = await serve(storage, V1);
    const old = await create(first.server, { agentVersionId: 'agv_1' });
    expect(old.status).toBe(201);
    await (
      await first.server.follow(old.body.runId as string)
    ).done;
    await first.server.close();
    open.splice(0);

    const { server, model } = await serve(storage, V2);
    const bootstrap = (await (await server.request('/bootstrap')).json()) as { agent: unknown };
    expect(bootstrap.agent).toEqual({ agentId: 'agt_support', versionId: 'agv_2', name: 'Support', status: 'active' });
    const continued = await create(server, { agentVersionId: 'agv_1', sessionId: old.body.sessionId as string });
    expect(continued.status).toBe(201);
    await (
      await server.follow(continued.body.runId as string)
    ).done;
    expect(productPromptOf(model.requests[0])).toBe('Prompt of version 1.');

    const fresh = await create(server, { agentVersionId: 'agv_2' });
    expect(fresh.status).toBe(201);
    await (
      await server.follow(fresh.body.runId as string)
    ).done;
    expect(productPromptOf(model.requests[1])).toBe('Prompt of version 2.');

    // An earlier version never starts a session, and a session's pin is kept either way.
    const stale = await create(server, { agentVersionId: 'agv_1' });
    expect([stale.status, stale.body.code, stale.body.details]).toEqual([
      409,
      'AGENT_VERSION_MISMATCH',
      { agentVersionId: 'agv_2' },
    ]);
    const crossed = await create(server, { agentVersionId: 'agv_2', sessionId: old.body.sessionId as string });
    expect([crossed.status, crossed.body.code, crossed.body.details]).toEqual([
      409,
      'AGENT_VERSION_MISMATCH',
      { agentVersionId: 'agv_1' },
    ]);
  });

  it('a disabled agent refuses new runs for every version, keeps history readable, and still replays an accepted create', async () => {
    const storage = createMemoryStorage();
    const live = await serve(storage, V2);
    const key = freshKey();
    const accepted = await create(live.server, { agentVersionId: 'agv_2' }, key);
    await (
      await live.server.follow(accepted.body.runId as string)
    ).done;
    await live.server.close();
    open.splice(0);

    const { server, model } = await serve(storage, { ...V2, status: 'disabled' });
    const sessionId = accepted.body.sessionId as string;
    for (const agentVersionId of ['agv_1', 'agv_2']) {
      const refused = await create(server, { agentVersionId, sessionId });
      expect([refused.status, refused.body.code]).toEqual([409, 'AGENT_UNAVAILABLE']);
    }
    const replayed = await create(server, { agentVersionId: 'agv_2' }, key);
    expect([replayed.status, replayed.body.runId]).toEqual([201, accepted.body.runId]);
    const messages = (await (await server.request(`/sessions/${sessionId}/messages`)).json()) as {
      items: { role: string; content: string }[];
    };
    expect(messages.items.map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Done.'],
      ['user', 'Hello'],
    ]);
    expect(model.requests).toHaveLength(0);
  });
});
