import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle } from './agent-client-types.ts';
import { createRecordingFetch } from '../../../test/support/record-fetch.ts';
import type { RecordingFetch } from '../../../test/support/record-fetch.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { isSettledState as isSettled, waitForState as waitFor } from '../../../test/support/wait-for-state.ts';

let server: ReferenceServer;
let recorder: RecordingFetch;
const clients: AgentClientHandle[] = [];

beforeEach(async () => {
  server = await startReferenceServer();
  recorder = createRecordingFetch();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose();
  await server.close();
});

function newClient(): AgentClientHandle {
  const client = createAgentClient({
    endpoint: `http://127.0.0.1:${server.port}/api/agent`,
    fetch: recorder.fetch,
    random: () => 0,
  });
  clients.push(client);
  return client;
}

const NEW_PROFILE = { displayName: 'Ada Lovelace', bio: 'Tea drinker.\nWrites about agents.' };

describe('proposals through the client core over loopback', () => {
  it('Apply sends only the decision and the digest shown; the write runs with the previewed arguments', async () => {
    const client = newClient();
    await client.send('/propose');
    const waiting = await waitFor(client, (s) => s.interrupts.some((i) => i.state === 'open'), 'an open proposal');
    const [interrupt] = waiting.interrupts;
    expect(interrupt?.reason).toBe('proposal');
    expect(interrupt?.proposal?.apply).toEqual({ tool: 'profile.update', arguments: NEW_PROFILE });
    const requestsBefore = recorder.requests.length;
    await client.approve(interrupt?.id ?? '', 'allow');
    const state = await waitFor(client, isSettled, 'the run after Apply');
    expect(JSON.parse(recorder.requests.at(requestsBefore)?.body ?? '{}')).toEqual({
      decision: 'allow',
      argsDigest: interrupt?.argsDigest,
    });
    expect(state.toolCalls.map((c) => [c.name, c.status, c.args])).toEqual([
      ['profile.propose', 'completed', NEW_PROFILE],
      ['profile.update', 'completed', NEW_PROFILE],
    ]);
    expect(state.toolCalls[1]?.argsDigest).toBe(interrupt?.argsDigest);
    expect(state.messages.at(-1)?.content).toBe('Done: your profile now shows the new display name and bio.');
  });

  it('Dismiss resolves the proposal as denied and no write appears', async () => {
    const client = newClient();
    await client.send('/propose Writes poems.');
    const waiting = await waitFor(client, (s) => s.interrupts.some((i) => i.state === 'open'), 'an open proposal');
    expect(waiting.interrupts[0]?.proposal?.diff).toEqual([
      { change: 'removed', text: 'Coffee drinker.' },
      { change: 'removed', text: 'Writes about agents.' },
      { change: 'added', text: 'Writes poems.' },
    ]);
    await client.approve(waiting.interrupts[0]?.id ?? '', 'deny');
    const state = await waitFor(client, isSettled, 'the run after Dismiss');
    expect(state.interrupts.map((i) => [i.state, i.decision])).toEqual([['resolved', 'deny']]);
    expect(state.toolCalls.map((c) => [c.name, c.status])).toEqual([['profile.propose', 'denied']]);
  });
});
