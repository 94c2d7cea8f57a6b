import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { isSettledState, waitForState } from '../../../test/support/wait-for-state.ts';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle, AgentClientOptions } from './agent-client-types.ts';

// Tabs in step (docs/client.md, "Tabs") against the real reference server: Node has the same
// BroadcastChannel as browsers, so two clients here are two tabs of one browser.

let server: ReferenceServer | undefined;
const clients: AgentClientHandle[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose();
  await server?.close();
  server = undefined;
});

function newClient(port: number, options: Partial<AgentClientOptions> = {}): AgentClientHandle {
  const client = createAgentClient({ endpoint: `http://127.0.0.1:${port}/api/agent`, random: () => 0, ...options });
  clients.push(client);
  return client;
}

/** Two synced clients of one user on one conversation, whose first turn has ended. */
async function twoTabs() {
  server = await startReferenceServer();
  const first = newClient(server.port, { syncTabs: true });
  await first.send('/echo first turn');
  const { sessionId } = await waitForState(first, isSettledState, 'the first turn');
  const other = newClient(server.port, { syncTabs: true });
  await other.restore(sessionId ?? '');
  return { first, other, sessionId };
}

describe('tabs in step', () => {
  it('a run started in one tab is followed at once by the other tab on that conversation, to the same end', async () => {
    const { first, other } = await twoTabs();
    const { runId } = await first.send('/echo second turn');
    // The other tab shows the session again with the run: streaming it, or settled when it was that quick.
    const settled = await waitForState(
      other,
      (state) =>
        state.connection === 'idle' &&
        state.messages.some(
          (message) => message.runId === runId && message.role === 'assistant' && message.status === 'complete',
        ),
      'the other tab to show the run to its end',
    );
    expect(settled.messages.map((message) => message.content)).toEqual(
      first.getState().messages.map((message) => message.content),
    );
  });

  it('a run that made a branch in one tab shows on its branch in the other', async () => {
    const { first, other, sessionId } = await twoTabs();
    await first.send('/echo second turn');
    await waitForState(other, (state) => state.messages.some((m) => m.content === 'second turn'), 'the second turn');
    const firstAnswer = first.getState().messages.find((message) => message.role === 'assistant');
    // An edit of the second question, made the way the widget makes one (docs/client.md, "Branches").
    await first.request({
      method: 'POST',
      path: '/runs',
      body: JSON.stringify({
        sessionId,
        agentVersionId: first.getState().bootstrap?.agent.versionId,
        parentMessageId: firstAnswer?.messageId,
        input: { content: [{ type: 'text', text: '/slow' }] },
      }),
      headers: { 'Idempotency-Key': 'tab-sync-branch-key-0001' },
    });
    await first.switchSession(sessionId ?? '');
    // The other tab shows the new branch as it streams: the second turn is gone, the edit is there.
    const streaming = await waitForState(
      other,
      (state) => state.run?.status === 'running' && state.messages.some((m) => m.content === '/slow'),
      'the other tab to show the new branch',
    );
    expect(streaming.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      '/echo first turn',
      '/slow',
    ]);
    await first.cancel();
    await waitForState(other, isSettledState, 'the edit to end in the other tab');
  });

  it('a tab on another conversation, or one not synced, does not follow it', async () => {
    const { first } = await twoTabs();
    const elsewhere = newClient(server!.port, { syncTabs: true });
    await elsewhere.send('/echo another conversation');
    const { sessionId: otherSession } = await waitForState(elsewhere, isSettledState, 'the other conversation');
    const unsynced = newClient(server!.port);
    await unsynced.restore(first.getState().sessionId ?? '');
    const before = unsynced.getState().run;

    const { runId } = await first.send('/echo not for them');
    await waitForState(first, isSettledState, 'the run');
    expect(elsewhere.getState()).toMatchObject({ sessionId: otherSession });
    expect(elsewhere.getState().run?.runId).not.toBe(runId);
    expect(unsynced.getState().run).toEqual(before);
  });

  it('a tab no channel reaches follows a run started meanwhile when it comes back into view', async () => {
    const { first, sessionId } = await twoTabs();
    // The same server spelled another way (`127.1` is 127.0.0.1): another endpoint, so another channel.
    const elsewhere = newClient(server!.port, { syncTabs: true });
    const away = createAgentClient({
      endpoint: `http://127.1:${server!.port}/api/agent`,
      syncTabs: true,
      random: () => 0,
    });
    clients.push(away);
    await Promise.all([elsewhere.restore(sessionId ?? ''), away.restore(sessionId ?? '')]);
    away.setVisibility(false);

    const { runId } = await first.send('/slow');
    await waitForState(elsewhere, (state) => state.run?.runId === runId, 'the reached tab');
    expect(away.getState().run?.runId).not.toBe(runId);
    away.setVisibility(true);
    await waitForState(away, (state) => state.run?.runId === runId && state.connection === 'streaming', 'catch-up');
    await first.cancel();
    const settled = await waitForState(away, isSettledState, 'the cancelled run');
    expect(settled.run).toMatchObject({ runId, status: 'cancelled' });
  });
});
