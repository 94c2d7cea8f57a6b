import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../../core/client/agent-client.ts';
import type { AgentClientHandle } from '../../core/client/agent-client-types.ts';
import type { ClientState } from '../../core/client/client-state.ts';
import type { EventEnvelope, SessionMessagesResponse } from '../../core/protocol.ts';
import { spawnDurableDemoServer } from '../../../test/support/durable-demo-server.ts';
import { findFreePort } from '../../../test/support/spawn-server.ts';
import type { SpawnedServer } from '../../../test/support/spawn-server.ts';
import { isSettledState as isEnded, waitForState } from '../../../test/support/wait-for-state.ts';

const COOKIE = 'agent_chat_demo=demo_restart_durability_1';
const SLOW_TOKEN = /word\d+|slowly\./g;

/** Milliseconds since the test started, for the timeline it prints (docs/benchmarks.md quotes it). */
const t0 = Date.now();
const timeline: string[] = [];
const mark = (what: string): void => {
  timeline.push(`${String(Date.now() - t0).padStart(6)} ms  ${what}`);
};

/** The demo user's fetch: the product's login cookie on every request (Node's fetch keeps no cookies). */
const fetchAsDemoUser: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('cookie', COOKIE);
  return fetch(input, { ...init, headers });
};

const waitFor = (client: AgentClientHandle, predicate: (state: ClientState) => boolean, what: string) =>
  waitForState(client, predicate, what, 30_000);

describe('a restart loses nothing (real server processes on one SQLite file)', () => {
  const clients: AgentClientHandle[] = [];
  let server: SpawnedServer | null = null;
  let folder = '';
  afterAll(async () => {
    for (const client of clients) client.dispose();
    await server?.kill('SIGTERM');
    if (folder !== '') await rm(folder, { recursive: true, force: true });
    console.log(`restart timeline:\n${timeline.join('\n')}`);
  });

  it('keeps identity, history and the waiting approval across kill -9, and ends the streaming run RUN_ABANDONED', async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-restart-'));
    const port = await findFreePort();
    const start = () => spawnDurableDemoServer({ port, folder });
    server = await start();
    mark(`server 1 listening on ${server.url}`);
    const endpoint = `${server.url}/api/agent`;
    const bootstrapIdentity = async (): Promise<string> => {
      const response = await fetchAsDemoUser(`${endpoint}/v1/bootstrap`);
      return ((await response.json()) as { identity: { identityId: string } }).identity.identityId;
    };
    const identityBefore = await bootstrapIdentity();
    const newClient = (onEvent?: (event: EventEnvelope) => void): AgentClientHandle => {
      const client = createAgentClient({
        endpoint,
        fetch: fetchAsDemoUser,
        random: () => 0.5,
        backoff: { baseMs: 100, capMs: 500 },
        ...(onEvent === undefined ? {} : { onEvent }),
      });
      clients.push(client);
      return client;
    };

    const finished = newClient();
    await finished.send('Hello there');
    const finishedState = await waitFor(finished, isEnded, 'the first answer');
    expect(finishedState.run?.status).toBe('completed');
    mark('run 1 completed');

    const streamedEvents: EventEnvelope[] = [];
    const streaming = newClient((event) => streamedEvents.push(event));
    await streaming.send('/slow');
    const partial = await waitFor(
      streaming,
      (s) => (s.messages.at(-1)?.content.match(SLOW_TOKEN)?.length ?? 0) >= 20,
      'twenty /slow words',
    );
    mark(`run 2 streaming (/slow), ${partial.messages.at(-1)?.content.match(SLOW_TOKEN)?.length} words shown`);

    const approving = newClient();
    await approving.send('/approval');
    const asked = await waitFor(approving, (s) => s.interrupts.some((i) => i.state === 'open'), 'the approval');
    const interruptId = asked.interrupts[0]?.id as string;
    mark(`run 3 waiting for approval ${interruptId}`);

    await server.kill('SIGKILL');
    mark('server 1 killed (SIGKILL)');
    server = await start();
    mark('server 2 listening on the same port and file');

    expect(await bootstrapIdentity()).toBe(identityBefore);
    const history = await fetchAsDemoUser(`${endpoint}/v1/sessions/${finishedState.sessionId}/messages`, {
      headers: { 'x-agent-identity': identityBefore },
    });
    const settled = (await history.json()) as SessionMessagesResponse;
    expect([...settled.items].reverse().map((m) => [m.role, m.content])).toEqual(
      finishedState.messages.map((m) => [m.role, m.content]),
    );
    mark('identity and history of run 1 intact');

    await approving.approve(interruptId, 'allow');
    const approved = await waitFor(approving, isEnded, 'the approved run to finish');
    expect(approved.run?.status).toBe('completed');
    // /approval lists the drafts in round 1, then asks before deleting one in round 2: the resumed
    // loop rebuilt round 1 from the log and ran the approved call of round 2.
    expect(approved.toolCalls.map((c) => [c.name, c.status])).toEqual([
      ['drafts.list', 'completed'],
      ['drafts.delete', 'completed'],
    ]);
    expect(approved.interrupts.map((i) => [i.id, i.state, i.decision])).toEqual([[interruptId, 'resolved', 'allow']]);
    mark('run 3 approved after the restart and completed');

    const abandoned = await waitFor(streaming, isEnded, 'the streaming run to end');
    mark('run 2 ended on the client');
    expect(abandoned.run?.status).toBe('failed');
    expect(abandoned.error).toEqual(expect.objectContaining({ code: 'RUN_ABANDONED', retryable: true, source: 'run' }));
    const answer = abandoned.messages.find((m) => m.role === 'assistant');
    expect(answer?.status).toBe('error');
    const seqs = streamedEvents.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => index + 1));
    const deltas = streamedEvents
      .filter((e): e is EventEnvelope<'TEXT_MESSAGE_CONTENT'> => e.type === 'TEXT_MESSAGE_CONTENT')
      .filter((e) => e.data.messageId === answer?.messageId)
      .map((e) => e.data.delta)
      .join('');
    expect(deltas).toBe(answer?.content);
    const words = deltas.match(SLOW_TOKEN) ?? [];
    expect(words).toEqual(words.map((_, index) => (index % 12 === 11 ? 'slowly.' : `word${index + 1}`)));
    expect(streamedEvents.slice(-2).map((e) => e.type)).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
    const snapshot = await (
      await fetchAsDemoUser(`${endpoint}/v1/runs/${abandoned.run?.runId}`, {
        headers: { 'x-agent-identity': identityBefore },
      })
    ).json();
    expect(snapshot.messages.find((m: { role: string }) => m.role === 'assistant')?.content).toBe(answer?.content);
    mark(`run 2: ${words.length} words, then RUN_ABANDONED; nothing lost or repeated`);

    for (const client of clients) expect(client.getState().error?.code).not.toBe('IDENTITY_CHANGED');
    expect(finished.getState().error).toBeNull();
  }, 90_000);
});
