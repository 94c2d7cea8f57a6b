import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionListResponse } from '../protocol.ts';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle, AgentClientOptions } from './agent-client-types.ts';
import type { ClientStorage } from './client-persistence.ts';
import { createConversations } from './conversations.ts';
import type { Conversations } from './conversations.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { isSettledState as isSettled, waitForState as waitFor } from '../../../test/support/wait-for-state.ts';

let server: ReferenceServer;
const disposables: { dispose(): void }[] = [];

beforeEach(async () => {
  server = await startReferenceServer();
});

afterEach(async () => {
  for (const item of disposables.splice(0)) item.dispose();
  await server.close();
});

const endpoint = (): string => `http://127.0.0.1:${server.port}/api/agent`;

function newClient(options: Partial<AgentClientOptions> = {}): AgentClientHandle {
  const client = createAgentClient({ endpoint: endpoint(), random: () => 0, ...options });
  disposables.push(client);
  return client;
}

function conversationsOf(client: AgentClientHandle): Conversations {
  const conversations = createConversations({ client });
  disposables.push(conversations);
  return conversations;
}

function memoryStorage(): ClientStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

async function converse(client: AgentClientHandle, text: string): Promise<string> {
  await client.send(text);
  return (await waitFor(client, isSettled, text)).sessionId as string;
}

async function serverList(): Promise<SessionListResponse> {
  const response = await fetch(`${endpoint()}/v1/sessions`, { headers: { 'x-agent-identity': 'idn_user-1' } });
  return (await response.json()) as SessionListResponse;
}

describe('conversations against the reference server (docs/client.md, "Conversations")', () => {
  it('lists by latest activity, pages, renames, and deletes the one on screen (which starts a new one)', async () => {
    const client = newClient();
    const conversations = conversationsOf(client);
    const first = await converse(client, '/echo first');
    client.newSession();
    const second = await converse(client, '/echo second');
    await conversations.listSessions({ limit: 1 });
    expect(conversations.getState()).toMatchObject({ isLoaded: true, isLoading: false, currentSessionId: second });
    expect(conversations.getState().items.map((s) => [s.sessionId, s.title, s.messageCount])).toEqual([
      [second, '/echo second', 2],
    ]);
    await conversations.listSessions({ isNextPage: true, limit: 1 });
    expect(conversations.getState().items.map((s) => s.sessionId)).toEqual([second, first]);
    expect(conversations.getState().nextAfter).toBeNull();

    const renamed = await conversations.renameSession(first, '  Greetings ');
    expect(renamed.title).toBe('Greetings');
    expect(conversations.getState().items.map((s) => s.title)).toEqual(['/echo second', 'Greetings']);

    await conversations.deleteSession(second);
    expect(conversations.getState().items.map((s) => s.sessionId)).toEqual([first]);
    expect(client.getState()).toMatchObject({ sessionId: null, messages: [] });
    expect(conversations.getState().currentSessionId).toBeNull();
    expect((await serverList()).items.map((s) => [s.sessionId, s.title])).toEqual([[first, 'Greetings']]);
    // Deleting what is already gone is done, not an error.
    await conversations.deleteSession(second);
    expect(conversations.getState().error).toBeNull();
  });

  it('switches away from a streaming run and back: the run went on and streams again', async () => {
    const client = newClient();
    const conversations = conversationsOf(client);
    const quiet = await converse(client, '/echo quiet');
    client.newSession();
    const { runId } = await client.send('/slow');
    const streaming = await waitFor(client, (s) => s.connection === 'streaming', 'the slow run streaming');
    const busy = streaming.sessionId as string;
    await conversations.switchSession(quiet);
    expect(client.getState()).toMatchObject({ sessionId: quiet, connection: 'idle', run: null });
    expect(client.getState().messages.map((m) => m.content)).toEqual(['/echo quiet', 'quiet']);
    await conversations.listSessions();
    const [top] = conversations.getState().items;
    expect([top?.sessionId, top?.activeRun?.runId]).toEqual([busy, runId]);
    await expect(conversations.deleteSession(busy)).rejects.toMatchObject({ code: 'RUN_ALREADY_ACTIVE' });
    expect(conversations.getState().error).toMatchObject({ code: 'RUN_ALREADY_ACTIVE', source: 'request' });
    expect(conversations.getState().items.map((s) => s.sessionId)).toContain(busy);

    const seqBefore = (await server.handler.store.getRun(runId))?.record.snapshot().lastSeq ?? 0;
    await conversations.switchSession(busy);
    const back = await waitFor(
      client,
      (s) => s.run?.runId === runId && s.connection === 'streaming' && (s.run?.lastSeq ?? 0) > seqBefore,
      'the slow run streaming again, past where it was',
    );
    expect(back.messages[0]?.content).toBe('/slow');
    await client.cancel();
    expect((await waitFor(client, isSettled, 'the cancelled run')).run?.status).toBe('cancelled');
    // The list follows the client: the ended run leaves it without reading it by hand.
    await expect
      .poll(() => conversations.getState().items.find((s) => s.sessionId === busy)?.activeRun, { timeout: 5_000 })
      .toBeNull();
  });

  it('tells the host about every change of conversation and keeps the current one across a reload', async () => {
    const storage = memoryStorage();
    const changes: (string | null)[] = [];
    const client = newClient({ storage, onSessionChange: (sessionId) => changes.push(sessionId) });
    const first = await converse(client, '/echo remembered');
    client.newSession();
    const second = await converse(client, '/echo latest');
    await client.switchSession(first);
    expect(changes).toEqual([first, null, second, first]);
    client.dispose();

    const reloaded = newClient({ storage });
    await reloaded.bootstrap();
    const state = await waitFor(reloaded, (s) => s.sessionId === first && s.messages.length === 2, 'the history');
    expect(state.messages.map((m) => m.content)).toEqual(['/echo remembered', 'remembered']);

    // A conversation deleted meanwhile is forgotten quietly on the next reload.
    await conversationsOf(reloaded).deleteSession(first);
    expect(storage.entries.has('agent-chat:session')).toBe(false);
    storage.setItem('agent-chat:session', JSON.stringify({ sessionId: first }));
    const again = newClient({ storage });
    await again.bootstrap();
    await waitFor(again, (s) => s.connection === 'idle' && s.sessionId === null, 'a fresh conversation');
    expect(again.getState().error).toBeNull();
    expect(storage.entries.has('agent-chat:session')).toBe(false);
  });
});
