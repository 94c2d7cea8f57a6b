import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, readSse, startTestServer } from '../test-support/start-test-server.ts';

const engine = createManualEngine();
let server: TestServer;
const runBody = { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'Hi' }] } };

beforeAll(async () => {
  server = await startTestServer({ engine, cancelGraceMs: 50, limits: { maxInputsPerRun: 2 } });
});
afterAll(() => server.close());

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

async function eventsOf(runId: string): Promise<EventEnvelope[]> {
  return (await readSse(await server.request(`/runs/${runId}/events`))).events;
}

describe('POST /runs idempotency', () => {
  it('10 concurrent creates with one key make one run; the rest are 409 IN_USE or replays', async () => {
    const key = freshKey();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => server.request('/runs', { body: runBody, headers: { 'idempotency-key': key } })),
    );
    const created = responses.filter((r) => r.status === 201);
    const inUse = responses.filter((r) => r.status === 409);
    expect(created.length + inUse.length).toBe(10);
    const runIds = new Set(await Promise.all(created.map(async (r) => (await json(r)).runId)));
    expect(runIds.size).toBe(1);
    expect(created.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const response of inUse) {
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await json(response)).toMatchObject({
        code: 'IDEMPOTENCY_KEY_IN_USE',
        retryable: true,
        retryAfterMs: 1000,
      });
    }
    const sessions = (await server.handler.store.listSessions('alice', { limit: 100 }))?.items ?? [];
    const runIdsBySession = await Promise.all(sessions.map((s) => server.handler.store.listSessionRunIds(s.sessionId)));
    expect(runIdsBySession.filter((ids) => ids.includes([...runIds][0] as string))).toHaveLength(1);
  });

  it('replays the stored 201 with Idempotent-Replayed, also after the run ended (lookup before state checks)', async () => {
    const key = freshKey();
    const first = await server.request('/runs', { body: runBody, headers: { 'idempotency-key': key } });
    const body = await json(first);
    const handle = await engine.handleOf(body.runId as string);
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    const again = await server.request('/runs', { body: runBody, headers: { 'idempotency-key': `"${key}"` } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await json(again)).toEqual(body);
  });

  it('answers 422 REUSED for the same key with another body, and accepts a corrected retry after a failure', async () => {
    const key = freshKey();
    await server.request('/runs', { body: runBody, headers: { 'idempotency-key': key } });
    const other = await server.request('/runs', {
      body: { ...runBody, input: { content: [{ type: 'text', text: 'Other' }] } },
      headers: { 'idempotency-key': key },
    });
    expect([other.status, (await json(other)).code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const retryKey = freshKey();
    const wrong = await server.request('/runs', {
      body: { ...runBody, agentVersionId: 'agv_old' },
      headers: { 'idempotency-key': retryKey },
    });
    expect(wrong.status).toBe(409);
    const fixed = await server.request('/runs', { body: runBody, headers: { 'idempotency-key': retryKey } });
    expect(fixed.status).toBe(201);
  });
});

describe('runs: inputs, cancel, interrupts, terminal invariants', () => {
  it('accepts inputs with an echo, replays a retry after the run ended, and refuses a new key then', async () => {
    const { runId } = await server.createRun('alice');
    const key = freshKey();
    const accepted = await server.request(`/runs/${runId}/inputs`, {
      body: { clientMessageId: 'cm_2', content: [{ type: 'text', text: 'And also' }] },
      headers: { 'idempotency-key': key },
    });
    expect(accepted.status).toBe(202);
    const body = await json(accepted);
    expect(body).toEqual({
      inputId: expect.stringMatching(/^inp_/) as unknown,
      messageId: expect.stringMatching(/^msg_/) as unknown,
      eventSeq: 4,
    });
    const handle = await engine.handleOf(runId);
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    const events = await eventsOf(runId);
    expect(events.slice(1, 4).map((e) => [e.type, e.data])).toEqual([
      [
        'TEXT_MESSAGE_START',
        { messageId: body.messageId, role: 'user', inputId: body.inputId, clientMessageId: 'cm_2' },
      ],
      ['TEXT_MESSAGE_CONTENT', { messageId: body.messageId, delta: 'And also' }],
      ['TEXT_MESSAGE_END', { messageId: body.messageId, finishReason: 'stop' }],
    ]);
    const retry = await server.request(`/runs/${runId}/inputs`, {
      body: { clientMessageId: 'cm_2', content: [{ type: 'text', text: 'And also' }] },
      headers: { 'idempotency-key': key },
    });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(await json(retry)).toEqual(body);
    const late = await server.request(`/runs/${runId}/inputs`, {
      body: { content: [{ type: 'text', text: 'Late' }] },
      headers: { 'idempotency-key': freshKey() },
    });
    expect([late.status, (await json(late)).code]).toEqual([409, 'RUN_NOT_ACTIVE']);
  });

  it('refuses inputs while awaiting input and past maxInputsPerRun', async () => {
    const { runId } = await server.createRun('alice');
    const send = (): Promise<Response> =>
      server.request(`/runs/${runId}/inputs`, {
        body: { content: [{ type: 'text', text: 'More' }] },
        headers: { 'idempotency-key': freshKey() },
      });
    expect((await send()).status).toBe(202);
    expect((await send()).status).toBe(202);
    const third = await send();
    expect([third.status, (await json(third)).code]).toEqual([429, 'INPUT_LIMIT']);
    const handle = await engine.handleOf(runId);
    await handle.append('RUN_STATUS_CHANGED', { status: 'awaiting_input' });
    const blocked = await send();
    expect([blocked.status, (await json(blocked)).code]).toEqual([409, 'RUN_NOT_ACCEPTING_INPUT']);
  });

  it('resolves an interrupt once: replay, conflict, digest mismatch, not found', async () => {
    const { runId } = await server.createRun('alice');
    const handle = await engine.handleOf(runId);
    await handle.append('INTERRUPT_REQUESTED', {
      interrupt: { id: 'int_1', reason: 'tool_call', toolCallId: 'tc_1', argsDigest: 'sha256:abc' },
    });
    const post = (body: unknown, id = 'int_1'): Promise<Response> =>
      server.request(`/runs/${runId}/interrupts/${id}`, { body });
    const mismatch = await post({ decision: 'allow', argsDigest: 'sha256:other' });
    expect([mismatch.status, (await json(mismatch)).code]).toEqual([412, 'ARGS_DIGEST_MISMATCH']);
    const missing = await post({ decision: 'allow', argsDigest: 'sha256:abc' }, 'int_nope');
    expect([missing.status, (await json(missing)).code]).toEqual([404, 'INTERRUPT_NOT_FOUND']);
    const waited = handle.waitFor((s) => s.interrupts[0]?.state === 'resolved');
    const allowed = await post({ decision: 'allow', argsDigest: 'sha256:abc' });
    expect(allowed.status).toBe(200);
    const expected = {
      interrupt: {
        id: 'int_1',
        reason: 'tool_call',
        toolCallId: 'tc_1',
        argsDigest: 'sha256:abc',
        state: 'resolved',
        runId,
        seq: 2,
        resolvedBy: 'user',
        decision: 'allow',
      },
      eventSeq: 3,
    };
    expect(await json(allowed)).toEqual(expected);
    expect((await waited).interrupts[0]?.decision).toBe('allow');
    const again = await post({ decision: 'allow', argsDigest: 'sha256:abc' });
    expect([again.status, again.headers.get('idempotent-replayed'), await json(again)]).toEqual([
      200,
      'true',
      expected,
    ]);
    const deny = await post({ decision: 'deny', argsDigest: 'sha256:abc' });
    expect([deny.status, (await json(deny)).interrupt]).toEqual([409, expected.interrupt]);
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
  });

  it('cancels with 202 + eventSeq, repeats safely, force-closes after the grace period, then answers 200', async () => {
    const { runId } = await server.createRun('alice');
    const handle = await engine.handleOf(runId);
    await handle.append('TEXT_MESSAGE_START', { messageId: 'msg_a', role: 'assistant' });
    await handle.append('INTERRUPT_REQUESTED', { interrupt: { id: 'int_9', reason: 'confirmation' } });
    const cancel = await server.request(`/runs/${runId}/cancel`, { body: { reason: 'stop please' } });
    expect([cancel.status, await json(cancel)]).toEqual([202, { status: 'cancelling', eventSeq: 4 }]);
    expect(handle.signal.aborted).toBe(true);
    expect(handle.signal.reason).toBe('stop please');
    const repeat = await server.request(`/runs/${runId}/cancel`, { body: {} });
    expect([repeat.status, await json(repeat)]).toEqual([202, { status: 'cancelling', eventSeq: 4 }]);
    const events = await eventsOf(runId);
    expect(events.slice(4).map((e) => [e.type, e.data])).toEqual([
      ['TEXT_MESSAGE_END', { messageId: 'msg_a', finishReason: 'cancelled' }],
      ['INTERRUPT_RESOLVED', { interruptId: 'int_9', status: 'cancelled', resolvedBy: 'cancel' }],
      ['RUN_FINISHED', { outcome: { type: 'cancelled', reason: 'stop please', forced: true }, unconsumedInputIds: [] }],
    ]);
    await expect(handle.append('RUN_FINISHED', { outcome: { type: 'success' } })).rejects.toBeInstanceOf(
      RunClosedError,
    );
    expect(
      await handle.transact(() => [{ type: 'NOTICE', data: { level: 'info', code: 'LATE', message: 'late' } }]),
    ).toEqual([]);
    const after = await server.request(`/runs/${runId}/cancel`, { body: {} });
    expect([after.status, await json(after)]).toEqual([200, { status: 'cancelled' }]);
    const answer = await server.request(`/runs/${runId}/interrupts/int_9`, {
      body: { decision: 'allow', argsDigest: 'x' },
    });
    expect([answer.status, (await json(answer)).code]).toEqual([409, 'RUN_NOT_ACTIVE']);
    const all = await eventsOf(runId);
    expect(all.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR')).toHaveLength(1);
    expect(all[all.length - 1]?.type).toBe('RUN_FINISHED');
  });

  it('ends a run the engine abandoned with closures and RUN_ERROR{INTERNAL}', async () => {
    const broken = await startTestServer({
      engine: {
        start: async () => {
          throw new Error('boom');
        },
      },
    });
    try {
      const { runId } = await broken.createRun('alice');
      const events = (await readSse(await broken.request(`/runs/${runId}/events`))).events;
      expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
      expect(events[1]?.data).toEqual({
        code: 'INTERNAL',
        message: 'The agent stopped unexpectedly. Please try again.',
        retryable: true,
        correlationId: expect.stringMatching(/^cor_/) as unknown,
        unconsumedInputIds: [],
      });
    } finally {
      await broken.close();
    }
  });
});

describe('sessions', () => {
  it('lists, describes and pages settled history newest first', async () => {
    const { runId, sessionId } = await server.createRun('carol', 'First question about   things');
    const handle = await engine.handleOf(runId);
    await handle.append('TEXT_MESSAGE_START', { messageId: 'msg_a1', role: 'assistant' });
    await handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a1', delta: 'Answer' });
    const during = await json(await server.request(`/sessions/${sessionId}/messages`, { user: 'carol' }));
    expect(during).toEqual({
      items: [],
      nextBefore: null,
      activeRun: { runId, status: 'queued', lastSeq: 3 },
      toolCalls: [],
      interrupts: [],
    });
    await handle.append('TEXT_MESSAGE_END', { messageId: 'msg_a1', finishReason: 'stop' });
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    const session = await json(await server.request(`/sessions/${sessionId}`, { user: 'carol' }));
    expect(session).toMatchObject({
      sessionId,
      agentVersionId: 'agv_demo_1',
      title: 'First question about things',
      activeRun: null,
      lastRunId: runId,
    });
    const list = await json(await server.request('/sessions?limit=1', { user: 'carol' }));
    expect([(list.items as { sessionId: string }[]).map((s) => s.sessionId), list.nextAfter]).toEqual([
      [sessionId],
      null,
    ]);
    const page1 = await json(await server.request(`/sessions/${sessionId}/messages?limit=1`, { user: 'carol' }));
    expect((page1.items as { messageId: string }[]).map((m) => m.messageId)).toEqual(['msg_a1']);
    const page2 = await json(
      await server.request(`/sessions/${sessionId}/messages?limit=1&before=${page1.nextBefore as string}`, {
        user: 'carol',
      }),
    );
    expect([
      (page2.items as { role: string; content: string }[]).map((m) => [m.role, m.content]),
      page2.nextBefore,
    ]).toEqual([[['user', 'First question about   things']], null]);
    const next = await server.createRun('carol', 'Second', { sessionId });
    const nextHandle = await engine.handleOf(next.runId);
    expect(nextHandle.history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'First question about   things'],
      ['assistant', 'Answer'],
    ]);
    await nextHandle.append('RUN_FINISHED', { outcome: { type: 'success' } });
  });
});
