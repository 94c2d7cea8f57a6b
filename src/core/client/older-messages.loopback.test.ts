import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../server/storage/memory-storage.ts';
import type { AgentStorage } from '../../server/storage/storage-port.ts';
import { seedSession } from '../../server/storage/test-support/seed-session.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { waitForState } from '../../../test/support/wait-for-state.ts';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle } from './agent-client-types.ts';

// Older messages against the real reference server (docs/client.md, "Older messages"): restore
// reads the newest page of 50 (the server's default), loadOlderMessages() the pages before it.

let server: ReferenceServer | undefined;
const clients: AgentClientHandle[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose();
  await server?.close();
  server = undefined;
});

/** Older-page reads the client made, by their `before` cursor. */
const olderReads: string[] = [];

/** Starts the server on `storage` and returns a client of user-1; `holdOlder` holds each older-page read until it resolves. */
async function start(storage: AgentStorage, holdOlder?: () => Promise<void>): Promise<AgentClientHandle> {
  olderReads.length = 0;
  server = await startReferenceServer({ storage });
  const client = createAgentClient({
    endpoint: `http://127.0.0.1:${server.port}/api/agent`,
    random: () => 0,
    fetch: async (input, init) => {
      const before = new URL(String(input)).searchParams.get('before');
      if (before !== null) {
        olderReads.push(before);
        await holdOlder?.();
      }
      return fetch(input, init);
    },
  });
  clients.push(client);
  return client;
}

/** Seeds `runs` runs (a user message and its answer each) of user-1 into `storage`. */
function seed(
  storage: AgentStorage,
  sessionId: string,
  runs: number,
  agentVersionId = 'agv_seeded',
): Promise<string[]> {
  return seedSession(storage, {
    sessionId,
    subjectId: 'user-1',
    agentVersionId,
    runs,
    userTextOf: (index) => `Question ${index + 1}`,
  });
}

const idsOf = (messages: readonly { messageId: string }[]): string[] => messages.map((message) => message.messageId);

describe('older messages against the reference server', () => {
  it('restores the newest page, then prepends older pages until the start, each message once, and asks no more', async () => {
    const storage = createMemoryStorage();
    const ids = await seed(storage, 'ses_long', 60);
    const client = await start(storage);
    await client.restore('ses_long');
    expect(idsOf(client.getState().messages)).toEqual(ids.slice(70));
    expect(client.getState()).toMatchObject({ hasOlderMessages: true, isLoadingOlderMessages: false });

    await client.loadOlderMessages();
    expect(idsOf(client.getState().messages)).toEqual(ids.slice(20));
    await client.loadOlderMessages();
    expect(idsOf(client.getState().messages)).toEqual(ids);
    expect(client.getState()).toMatchObject({ hasOlderMessages: false, isLoadingOlderMessages: false, error: null });
    expect(olderReads).toEqual([ids[70], ids[20]]);

    await client.loadOlderMessages();
    expect(olderReads).toHaveLength(2);
    expect(idsOf(client.getState().messages)).toEqual(ids);
  });

  it('reads a page once for concurrent calls, and shows it loading meanwhile', async () => {
    const storage = createMemoryStorage();
    const ids = await seed(storage, 'ses_long', 30);
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = await start(storage, () => held);
    await client.restore('ses_long');
    const first = client.loadOlderMessages();
    const second = client.loadOlderMessages();
    expect(client.getState().isLoadingOlderMessages).toBe(true);
    release();
    await Promise.all([first, second]);
    expect(olderReads).toEqual([ids[10]]);
    expect(idsOf(client.getState().messages)).toEqual(ids);
    expect(client.getState()).toMatchObject({ hasOlderMessages: false, isLoadingOlderMessages: false });
  });

  it('drops an older page that arrives after a switch to another conversation', async () => {
    const storage = createMemoryStorage();
    await seed(storage, 'ses_long', 30);
    const other = await seed(storage, 'ses_other', 2);
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = await start(storage, () => held);
    await client.restore('ses_long');
    const older = client.loadOlderMessages();
    await client.switchSession('ses_other');
    release();
    await older;
    expect(client.getState()).toMatchObject({
      sessionId: 'ses_other',
      hasOlderMessages: false,
      isLoadingOlderMessages: false,
      error: null,
    });
    expect(idsOf(client.getState().messages)).toEqual(other);
  });

  it('keeps the active run streaming while older messages load before it', async () => {
    const storage = createMemoryStorage();
    const bootClient = await start(storage);
    const { versionId } = (await bootClient.bootstrap()).agent;
    const ids = await seed(storage, 'ses_long', 30, versionId);
    await bootClient.restore('ses_long');
    await bootClient.send('/slow');
    const reader = createAgentClient({ endpoint: `http://127.0.0.1:${server?.port}/api/agent`, random: () => 0 });
    clients.push(reader);
    await reader.restore('ses_long');
    const restored = await waitForState(reader, (state) => state.connection === 'streaming', 'the active run streams');
    expect(idsOf(restored.messages).slice(0, 50)).toEqual(ids.slice(10));
    await reader.loadOlderMessages();
    const state = reader.getState();
    expect(idsOf(state.messages).slice(0, 60)).toEqual(ids);
    expect(state.messages[60]).toMatchObject({ role: 'user', content: '/slow' });
    expect(new Set(idsOf(state.messages)).size).toBe(state.messages.length);
    expect(state).toMatchObject({ hasOlderMessages: false, run: { status: 'running' } });
    const seq = state.run?.lastSeq ?? 0;
    await waitForState(reader, (next) => (next.run?.lastSeq ?? 0) > seq, 'the run to stream on');
    await bootClient.cancel();
  });

  it('does not read the session of another user: restore is NOT_FOUND and nothing older is asked for', async () => {
    const storage = createMemoryStorage();
    await seed(storage, 'ses_long', 30);
    const client = await start(storage);
    server?.signInAs('user-2');
    await expect(client.restore('ses_long')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await client.loadOlderMessages();
    expect(olderReads).toEqual([]);
    expect(client.getState().messages).toEqual([]);
  });
});
