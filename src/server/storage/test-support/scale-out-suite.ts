import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CreateRunResponse,
  EventEnvelope,
  RunResource,
  SessionListResponse,
  SessionMessagesResponse,
} from '../../../core/protocol.ts';
import type { DemoUser } from '../../../../test/support/demo-user-http.ts';
import { readRunStream, signInDemoUser } from '../../../../test/support/demo-user-http.ts';
import { findFreePort, spawnServer } from '../../../../test/support/spawn-server.ts';
import type { SpawnedServer } from '../../../../test/support/spawn-server.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const LEASE_TTL_MS = 1500;

const t0 = Date.now();
const timeline: string[] = [];
const mark = (what: string): void => {
  timeline.push(`${String(Date.now() - t0).padStart(6)} ms  ${what}`);
};

/** Creates a run in a new session as `user` on `serverUrl` with `text` under `key` (a fresh one by default). */
async function postRun(user: DemoUser, serverUrl: string, text: string, key: string = randomUUID()): Promise<Response> {
  return user.request(serverUrl, '/runs', {
    method: 'POST',
    body: { agentVersionId: user.agentVersionId, input: { content: [{ type: 'text', text }] } },
    headers: { 'idempotency-key': key },
  });
}

/** Posts the create until it is answered 201, waiting `Retry-After` on `409 IDEMPOTENCY_KEY_IN_USE` (as the client does). */
async function createRunWithKey(user: DemoUser, serverUrl: string, text: string, key: string) {
  for (;;) {
    const response = await postRun(user, serverUrl, text, key);
    if (response.status !== 409) return { status: response.status, body: (await response.json()) as CreateRunResponse };
    expect(((await response.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    await new Promise((done) => setTimeout(done, 50));
  }
}

const textOf = (events: readonly EventEnvelope[]): string =>
  events
    .filter((e): e is EventEnvelope<'TEXT_MESSAGE_CONTENT'> => e.type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => e.data.delta)
    .join('');

/** The store both processes share: the environment that selects it, and how to stop it. */
export interface SharedStore {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The scale-out suite (docs/server.md, "Redis (many server processes)" and "Postgres (one or many
 * server processes)"): two demo server processes on one shared store follow, cancel, approve and
 * feed each other's runs, share idempotency keys, rates, active run counts and executor leases, and
 * end a killed process's run `RUN_ABANDONED` once its lease expired.
 */
export function describeScaleOut(stores: [string, () => Promise<SharedStore>][]): void {
  describe.each(stores)('two server processes on %s', (_name, openStore) => {
    let store: SharedStore;
    const servers = new Map<'A' | 'B', SpawnedServer>();
    const ports = new Map<'A' | 'B', number>();
    let user: DemoUser;
    const urlOf = (name: 'A' | 'B'): string => servers.get(name)?.url ?? '';
    const start = async (name: 'A' | 'B'): Promise<void> => {
      const port = ports.get(name) ?? (await findFreePort());
      ports.set(name, port);
      const server = await spawnServer({
        entry: join(rootDir, 'test/support/durable-demo-entry.ts'),
        cwd: rootDir,
        env: {
          HOST: '127.0.0.1',
          PORT: String(port),
          ...store.env,
          AGENT_CHAT_LEASE_TTL_MS: String(LEASE_TTL_MS),
          AGENT_SCRIPTED_DELAY_MS: '1',
          AGENT_LIMITS: '{"interruptAnswersPerMinute":3,"maxActiveRuns":2}',
        },
      });
      servers.set(name, server);
      mark(`server ${name} listening on ${server.url}`);
    };

    beforeAll(async () => {
      store = await openStore();
      await Promise.all([start('A'), start('B')]);
      user = await signInDemoUser(urlOf('A'), 'agent_chat_demo=demo_scale_out_1');
    }, 60_000);
    afterAll(async () => {
      for (const server of servers.values()) await server.kill('SIGTERM');
      servers.clear();
      await store.stop();
      console.log(`scale-out timeline:\n${timeline.join('\n')}`);
    });

    it('gives one user the same identity on both processes (the identity secret is kept in the shared store)', async () => {
      const onB = await signInDemoUser(urlOf('B'), 'agent_chat_demo=demo_scale_out_1');
      expect(onB.identityId).toBe(user.identityId);
    });

    it('streams a run produced on A to a reader on B, identical from any cursor, and a cancel sent to B stops it on A', async () => {
      const created = await postRun(user, urlOf('A'), '/slow');
      expect(created.status).toBe(201);
      const { runId } = (await created.json()) as CreateRunResponse;
      const onA = readRunStream(user, urlOf('A'), runId);
      const onB = readRunStream(user, urlOf('B'), runId);
      await onA.waitForCount(40);
      // A reader that joins later on B resumes from its cursor with the tail that follows it.
      const fromCursor = readRunStream(user, urlOf('B'), runId, 20);
      await fromCursor.waitForCount(10);
      const cancelled = await user.request(urlOf('B'), `/runs/${runId}/cancel`, {
        method: 'POST',
        body: { reason: 'stop on B' },
      });
      expect(cancelled.status).toBe(202);
      const { eventSeq } = (await cancelled.json()) as { eventSeq: number };
      mark(`run ${runId} cancelled through B at seq ${eventSeq}`);
      const [eventsOnA, eventsOnB, resumed] = await Promise.all([onA.done, onB.done, fromCursor.done]);
      mark(`run ${runId}: ${eventsOnA.length} events on A and B`);

      expect(eventsOnB).toEqual(eventsOnA);
      expect(resumed).toEqual(eventsOnA.slice(20));
      expect(eventsOnA.map((e) => e.seq)).toEqual(eventsOnA.map((_, index) => index + 1));
      expect(eventsOnA[eventSeq - 1]).toEqual(
        expect.objectContaining({ type: 'RUN_STATUS_CHANGED', data: { status: 'cancelling', reason: 'stop on B' } }),
      );
      // The engine on A stopped: its message closes as cancelled and the run finishes cancelled.
      expect(eventsOnA.slice(-2)).toEqual([
        expect.objectContaining({
          type: 'TEXT_MESSAGE_END',
          data: expect.objectContaining({ finishReason: 'cancelled' }),
        }),
        expect.objectContaining({
          type: 'RUN_FINISHED',
          data: expect.objectContaining({ outcome: { type: 'cancelled', reason: 'stop on B' } }),
        }),
      ]);
      const snapshot = (await (await user.request(urlOf('A'), `/runs/${runId}`)).json()) as RunResource;
      expect(snapshot.status).toBe('cancelled');
      expect(snapshot.messages.find((m) => m.role === 'assistant')?.content).toBe(textOf(eventsOnA));
    });

    it('answers an approval sent to B for a run waiting on A, which then completes', async () => {
      const created = (await (await postRun(user, urlOf('A'), '/approval')).json()) as CreateRunResponse;
      const stream = readRunStream(user, urlOf('A'), created.runId);
      let snapshot: RunResource;
      do snapshot = (await (await user.request(urlOf('B'), `/runs/${created.runId}`)).json()) as RunResource;
      while (!snapshot.interrupts.some((i) => i.state === 'open'));
      const [interrupt] = snapshot.interrupts;
      const answered = await user.request(urlOf('B'), `/runs/${created.runId}/interrupts/${interrupt?.id}`, {
        method: 'POST',
        body: { decision: 'allow', argsDigest: interrupt?.argsDigest },
      });
      expect(answered.status).toBe(200);
      const events = await stream.done;
      expect(events.at(-1)).toEqual(
        expect.objectContaining({
          type: 'RUN_FINISHED',
          data: expect.objectContaining({ outcome: { type: 'success' } }),
        }),
      );
      const ended = (await (await user.request(urlOf('A'), `/runs/${created.runId}`)).json()) as RunResource;
      expect(ended.toolCalls.map((c) => [c.name, c.status])).toEqual([
        ['drafts.list', 'completed'],
        ['drafts.delete', 'completed'],
      ]);
    });

    it('takes an input sent to B into the run on A, whose engine then lists it as not consumed at the cancel', async () => {
      const created = (await (await postRun(user, urlOf('A'), '/slow')).json()) as CreateRunResponse;
      const onA = readRunStream(user, urlOf('A'), created.runId);
      await onA.waitForCount(10);
      const added = await user.request(urlOf('B'), `/runs/${created.runId}/inputs`, {
        method: 'POST',
        body: { content: [{ type: 'text', text: 'one more thing' }] },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(added.status).toBe(202);
      const { inputId, eventSeq } = (await added.json()) as { inputId: string; eventSeq: number };
      await user.request(urlOf('A'), `/runs/${created.runId}/cancel`, { method: 'POST', body: {} });
      const events = await onA.done;
      expect(events.slice(eventSeq - 3, eventSeq).map((e) => [e.seq, e.type])).toEqual([
        [eventSeq - 2, 'TEXT_MESSAGE_START'],
        [eventSeq - 1, 'TEXT_MESSAGE_CONTENT'],
        [eventSeq, 'TEXT_MESSAGE_END'],
      ]);
      expect(events[eventSeq - 3]?.data).toEqual(expect.objectContaining({ role: 'user', inputId }));
      expect(events.at(-1)).toEqual(
        expect.objectContaining({
          type: 'RUN_FINISHED',
          data: expect.objectContaining({
            outcome: { type: 'cancelled', reason: 'cancelled' },
            unconsumedInputIds: [inputId],
          }),
        }),
      );
    });

    it('makes one run of the same Idempotency-Key posted to A and B at once', async () => {
      const key = 'scale-out-key-0001';
      const sessionsOf = async () =>
        ((await (await user.request(urlOf('A'), '/sessions')).json()) as SessionListResponse).items;
      const before = await sessionsOf();
      const [onA, onB] = await Promise.all([
        createRunWithKey(user, urlOf('A'), 'Hello there', key),
        createRunWithKey(user, urlOf('B'), 'Hello there', key),
      ]);
      expect([onA.status, onB.status]).toEqual([201, 201]);
      expect(onB.body).toEqual(onA.body);
      const after = await sessionsOf();
      expect(after.length).toBe(before.length + 1);
      expect(after.filter((s) => s.lastRunId === onA.body.runId).map((s) => s.sessionId)).toEqual([onA.body.sessionId]);
      await readRunStream(user, urlOf('B'), onA.body.runId).done;
    });

    it('counts a rate against the identity on both processes together', async () => {
      // Another user, so this one's bucket is fresh: 3 answers a minute across A and B.
      const other = await signInDemoUser(urlOf('A'), 'agent_chat_demo=demo_scale_out_rates');
      const answer = (name: 'A' | 'B') =>
        other.request(urlOf(name), '/runs/run_unknown/interrupts/int_unknown', {
          method: 'POST',
          body: { decision: 'allow', argsDigest: 'sha256:0' },
        });
      const statuses = [];
      for (const name of ['A', 'B', 'A'] as const) statuses.push((await answer(name)).status);
      expect(statuses).toEqual([404, 404, 404]);
      const refused = await answer('B');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('20');
      expect(await refused.json()).toEqual(
        expect.objectContaining({
          code: 'RATE_LIMITED',
          details: { limit: 'interruptAnswersPerMinute', interruptAnswersPerMinute: 3 },
        }),
      );
    });

    it('counts maxActiveRuns over the runs both processes produce', async () => {
      const other = await signInDemoUser(urlOf('A'), 'agent_chat_demo=demo_scale_out_active');
      const onA = (await (await postRun(other, urlOf('A'), '/slow')).json()) as CreateRunResponse;
      const onB = (await (await postRun(other, urlOf('B'), '/slow')).json()) as CreateRunResponse;
      // A produces one of them, yet the subject has two runs going: a third is refused on A.
      const refused = await postRun(other, urlOf('A'), '/slow');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual(
        expect.objectContaining({ code: 'RATE_LIMITED', details: { limit: 'maxActiveRuns', maxActiveRuns: 2 } }),
      );
      for (const created of [onA, onB]) {
        const stream = readRunStream(other, urlOf('B'), created.runId);
        await other.request(urlOf('A'), `/runs/${created.runId}/cancel`, { method: 'POST', body: {} });
        expect((await stream.done).at(-1)?.type).toBe('RUN_FINISHED');
      }
      expect((await postRun(other, urlOf('B'), 'Hello there')).status).toBe(201);
    });

    it('answers every executor request on either process: connect, heartbeat, pending, claim and receipts alternate between A and B', async () => {
      const executorId = 'exe_scale_out_1';
      const post = (name: 'A' | 'B', path: string, body: unknown, headers: Record<string, string> = {}) =>
        user.request(urlOf(name), path, { method: 'POST', body, headers });
      expect((await post('A', `/executors/${executorId}/connect`, { tools: ['test.word'] })).status).toBe(200);
      const created = await user.request(urlOf('B'), '/runs', {
        method: 'POST',
        body: {
          agentVersionId: user.agentVersionId,
          input: { content: [{ type: 'text', text: '/clienttool test.word {}' }] },
          browserTools: [
            {
              name: 'test.word',
              description: 'Returns a word.',
              parameters: { type: 'object', properties: {}, additionalProperties: false },
              policy: 'allow',
            },
          ],
        },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(created.status).toBe(201);
      const { runId } = (await created.json()) as CreateRunResponse;
      const stream = readRunStream(user, urlOf('A'), runId);
      while (!stream.events.some((e) => e.type === 'TOOL_CALL_DISPATCHED'))
        await new Promise((done) => setTimeout(done, 20));
      const dispatched = stream.events.find(
        (e): e is EventEnvelope<'TOOL_CALL_DISPATCHED'> => e.type === 'TOOL_CALL_DISPATCHED',
      );
      const toolCallId = dispatched?.data.toolCallId ?? '';
      const callPath = `/runs/${runId}/tool-calls/${toolCallId}`;

      // The lease A took is in the shared store: B renews it and lists the call, A lists it too.
      const heartbeat = await post('B', `/executors/${executorId}/heartbeat`, {});
      expect(heartbeat.status).toBe(200);
      for (const name of ['A', 'B'] as const) {
        const pending = await user.request(urlOf(name), `/executors/${executorId}/pending`);
        expect(pending.status).toBe(200);
        const { items } = (await pending.json()) as { items: Array<{ toolCallId: string; claimedBy: string | null }> };
        expect(items.map((item) => [item.toolCallId, item.claimedBy])).toEqual([[toolCallId, null]]);
      }
      const claimed = await post('B', `${callPath}/claim`, { executorId });
      expect(claimed.status).toBe(200);
      const { grant } = (await claimed.json()) as { grant: string };
      mark(`browser call of run ${runId} connected on A, renewed, listed and claimed on B`);

      const receipt = (name: 'A' | 'B', kind: string, sequence: number, extra: Record<string, unknown> = {}) =>
        post(
          name,
          `${callPath}/receipts`,
          { executorId, receiptId: `rcp_${kind}`, sequence, kind, ...extra },
          { 'x-tool-grant': grant },
        );
      const accepted = await receipt('A', 'accepted', 0);
      expect([accepted.status, ((await accepted.json()) as { accepted?: boolean }).accepted]).toEqual([200, true]);
      expect((await post('A', `/executors/${executorId}/heartbeat`, {})).status).toBe(200);
      const completed = await receipt('B', 'completed', 1, { result: { word: 'scale-out' } });
      expect([completed.status, ((await completed.json()) as { accepted?: boolean }).accepted]).toEqual([200, true]);
      const events = await stream.done;
      expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')?.data).toEqual(
        expect.objectContaining({ status: 'completed' }),
      );
      expect(events.at(-1)?.type).toBe('RUN_FINISHED');

      // A disconnect through B ends the lease for A as well.
      expect((await post('B', `/executors/${executorId}/disconnect`, {})).status).toBe(200);
      const afterDisconnect = await post('A', `/executors/${executorId}/heartbeat`, {});
      expect([afterDisconnect.status, ((await afterDisconnect.json()) as { code?: string }).code]).toEqual([
        409,
        'EXECUTOR_NOT_CONNECTED',
      ]);
    });

    it('ends a run whose producer A was killed with RUN_ABANDONED on B once its lease expired, and a restarted A serves its history', async () => {
      const created = (await (await postRun(user, urlOf('A'), '/slow')).json()) as CreateRunResponse;
      const onB = readRunStream(user, urlOf('B'), created.runId);
      await onB.waitForCount(30);
      await servers.get('A')?.kill('SIGKILL');
      const killedAt = Date.now();
      mark(`server A killed (SIGKILL) while producing ${created.runId}, ${onB.events.length} events seen on B`);
      const events = await onB.done;
      mark(`B's reader got RUN_ABANDONED ${Date.now() - killedAt} ms after the kill (lease TTL ${LEASE_TTL_MS} ms)`);
      mark(
        `the failover on B's stream: ${events
          .slice(-3)
          .map((e) => `${e.seq} ${e.type}`)
          .join(', ')}`,
      );
      expect(events.map((e) => e.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.at(-1)).toEqual(
        expect.objectContaining({
          type: 'RUN_ERROR',
          data: expect.objectContaining({ code: 'RUN_ABANDONED', retryable: true }),
        }),
      );
      const words = textOf(events).match(/word\d+|slowly\./g) ?? [];
      expect(words.length).toBeGreaterThan(0);
      expect(words).toEqual(words.map((_, index) => (index % 12 === 11 ? 'slowly.' : `word${index + 1}`)));

      await start('A');
      mark('server A restarted on its port');
      const historyOn = async (name: 'A' | 'B') =>
        (await (
          await user.request(urlOf(name), `/sessions/${created.sessionId}/messages`)
        ).json()) as SessionMessagesResponse;
      const onRestartedA = await historyOn('A');
      expect(onRestartedA).toEqual(await historyOn('B'));
      expect(onRestartedA.items.map((m) => [m.role, m.status])).toEqual([
        ['assistant', 'error'],
        ['reasoning', 'complete'],
        ['user', 'complete'],
      ]);
      expect(onRestartedA.items[0]?.content).toBe(textOf(events));
    });
  });
}
