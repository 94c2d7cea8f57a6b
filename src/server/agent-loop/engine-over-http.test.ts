import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, EventType, Limits, RunStatus } from '../../core/protocol.ts';
import { createScriptedModel } from '../models/scripted-model.ts';
import { freshKey } from '../test-support/start-test-server.ts';
import { assertEventInvariants } from './test-support/assert-event-invariants.ts';
import { dataOf, foldTypes } from './test-support/run-engine-harness.ts';
import type { EngineServer, FollowedRun } from './test-support/start-engine-server.ts';
import { resourceFromEvents, startEngineServer } from './test-support/start-engine-server.ts';
import type { RunEngineOptions } from './engine-options.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** A fresh handler + engine per test (the demo tools keep each user's drafts). */
async function serve(engine: RunEngineOptions = {}, handler: { limits?: Partial<Limits> } = {}): Promise<EngineServer> {
  const server = await startEngineServer({ engine, handler });
  open.push(server);
  return server;
}

const REASONING = [
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT*',
  'REASONING_MESSAGE_END',
  'REASONING_END',
];
const TEXT = ['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT*', 'TEXT_MESSAGE_END'];
const TOOL_ROUND_1 = [
  'RUN_STARTED',
  'RUN_STATUS_CHANGED',
  'STEP_STARTED',
  ...REASONING,
  ...TEXT,
  'TOOL_CALL_START',
  'TOOL_CALL_END',
];
const ANSWER_ROUND_2 = ['STEP_FINISHED', 'STEP_STARTED', ...TEXT, 'STEP_FINISHED', 'RUN_FINISHED'];
/** `/approval` lists the user's drafts in round 1 (read-only), then asks to delete one in round 2. */
const DELETE_ROUND_2 = [
  'TOOL_CALL_RESULT',
  'STEP_FINISHED',
  'STEP_STARTED',
  ...TEXT,
  'TOOL_CALL_START',
  'TOOL_CALL_END',
];
const APPROVAL_ASKED = [...TOOL_ROUND_1, ...DELETE_ROUND_2, 'INTERRUPT_REQUESTED', 'RUN_STATUS_CHANGED'];
/** The results of `/approval`'s deletion (after the drafts.list result of round 1). */
const deletionResults = (events: readonly EventEnvelope[]) => dataOf(events, 'TOOL_CALL_RESULT').slice(1);

const indexOfStatus = (events: readonly EventEnvelope[], status: RunStatus): number =>
  events.findIndex((e) => e.type === 'RUN_STATUS_CHANGED' && (e.data as { status: string }).status === status);
const hasStatus =
  (status: RunStatus) =>
  (events: readonly EventEnvelope[]): boolean =>
    indexOfStatus(events, status) >= 0;
const hasType =
  (type: EventType) =>
  (events: readonly EventEnvelope[]): boolean =>
    events.some((e) => e.type === type);

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Starts `/approval` as `user` (alice) and follows it until the approval of deleting `draftId` is asked for. */
async function startApproval(
  server: EngineServer,
  { user = 'alice', draftId = 'draft-42' } = {},
): Promise<{ runId: string; run: FollowedRun; interruptId: string; argsDigest: string }> {
  const { runId } = await server.createRun(user, '/approval');
  const run = await server.follow(runId, user);
  const events = await run.until(hasStatus('awaiting_input'));
  expect(foldTypes(events)).toEqual(APPROVAL_ASKED);
  const [requested] = dataOf(events, 'INTERRUPT_REQUESTED');
  const end = dataOf(events, 'TOOL_CALL_END').at(-1);
  expect(end?.args).toEqual({ draftId });
  expect(requested?.interrupt.argsDigest).toBe(end?.argsDigest);
  expect(requested?.interrupt.toolCallId).toBe(end?.toolCallId);
  return { runId, run, interruptId: requested?.interrupt.id ?? '', argsDigest: end?.argsDigest ?? '' };
}

/** Waits for the end of the stream, checks docs/protocol.md §7 and that `GET /runs/{id}` is the reducer over it. */
async function finished(server: EngineServer, runId: string, run: FollowedRun): Promise<EventEnvelope[]> {
  const events = await run.done;
  assertEventInvariants(events);
  expect(await server.resource(runId)).toEqual(resourceFromEvents(events));
  return events;
}

function answerOf(events: readonly EventEnvelope[]): string | undefined {
  return resourceFromEvents(events)
    .messages.filter((m) => m.role === 'assistant')
    .at(-1)?.content;
}

describe('approvals over HTTP with the real engine', () => {
  it('allow: 200 {interrupt, eventSeq}, the tool runs, the answer says so; another subject sees 404', async () => {
    const server = await serve();
    const { runId, run, interruptId, argsDigest } = await startApproval(server);
    const path = `/runs/${runId}/interrupts/${interruptId}`;
    const stranger = await server.request(path, { user: 'bob', body: { decision: 'allow', argsDigest } });
    expect([stranger.status, (await json(stranger)).code]).toEqual([404, 'INTERRUPT_NOT_FOUND']);
    expect((await server.request(`/runs/${runId}`, { user: 'bob' })).status).toBe(404);

    const response = await server.request(path, { body: { decision: 'allow', argsDigest } });
    expect(response.status).toBe(200);
    const body = await json(response);
    const events = await finished(server, runId, run);
    expect(foldTypes(events)).toEqual([
      ...APPROVAL_ASKED,
      'INTERRUPT_RESOLVED',
      'RUN_STATUS_CHANGED',
      'TOOL_CALL_RESULT',
      ...ANSWER_ROUND_2,
    ]);
    const resolved = events.find((e) => e.type === 'INTERRUPT_RESOLVED');
    expect(body).toEqual({
      interrupt: {
        ...dataOf(events, 'INTERRUPT_REQUESTED')[0]?.interrupt,
        runId,
        seq: events.find((e) => e.type === 'INTERRUPT_REQUESTED')?.seq,
        state: 'resolved',
        decision: 'allow',
        resolvedBy: 'user',
      },
      eventSeq: resolved?.seq,
    });
    expect(dataOf(events, 'INTERRUPT_RESOLVED')).toEqual([
      { interruptId, status: 'resolved', resolvedBy: 'user', decision: 'allow' },
    ]);
    expect(dataOf(events, 'RUN_STATUS_CHANGED').map((d) => d.status)).toEqual(['running', 'awaiting_input', 'running']);
    expect(deletionResults(events).map((d) => [d.status, d.content])).toEqual([
      ['completed', '{"draftId":"draft-42","deleted":true}'],
    ]);
    expect(answerOf(events)).toBe('Done: **draft-42** was deleted.');
    expect(dataOf(events, 'RUN_FINISHED').map((d) => d.outcome)).toEqual([{ type: 'success' }]);
  });

  it("every user's /approval deletes one of their own drafts, every time: alice twice, then bob", async () => {
    const server = await serve();
    const approve = async (user: string, draftId: string): Promise<string | undefined> => {
      const { runId, run, interruptId, argsDigest } = await startApproval(server, { user, draftId });
      const path = `/runs/${runId}/interrupts/${interruptId}`;
      expect((await server.request(path, { user, body: { decision: 'allow', argsDigest } })).status).toBe(200);
      const events = await run.done;
      expect(deletionResults(events).map((d) => [d.status, d.content])).toEqual([
        ['completed', JSON.stringify({ draftId, deleted: true })],
      ]);
      return answerOf(events);
    };
    expect(await approve('alice', 'draft-42')).toBe('Done: **draft-42** was deleted.');
    expect(await approve('alice', 'draft-43')).toBe('Done: **draft-43** was deleted.');
    expect(await approve('bob', 'draft-42')).toBe('Done: **draft-42** was deleted.');
  });

  it('a wrong digest is 412 and leaves the interrupt open; deny then gives a denied result and success', async () => {
    const server = await serve();
    const { runId, run, interruptId, argsDigest } = await startApproval(server);
    const path = `/runs/${runId}/interrupts/${interruptId}`;
    const wrong = await server.request(path, { body: { decision: 'allow', argsDigest: 'sha256:not-what-was-shown' } });
    expect(wrong.status).toBe(412);
    expect(await json(wrong)).toMatchObject({ code: 'ARGS_DIGEST_MISMATCH', details: { argsDigest } });
    const waiting = await server.resource(runId);
    expect([waiting.status, waiting.interrupts.map((i) => i.state)]).toEqual(['awaiting_input', ['open']]);

    expect((await server.request(path, { body: { decision: 'deny', argsDigest } })).status).toBe(200);
    const events = await finished(server, runId, run);
    expect(foldTypes(events)).toEqual([
      ...APPROVAL_ASKED,
      'INTERRUPT_RESOLVED',
      'RUN_STATUS_CHANGED',
      'TOOL_CALL_RESULT',
      ...ANSWER_ROUND_2,
    ]);
    expect(deletionResults(events).map((d) => d.status)).toEqual(['denied']);
    expect(answerOf(events)).toBe('Understood: I did **not** delete draft-42.');
    expect(resourceFromEvents(events).outcome).toEqual({ type: 'success' });
  });

  it('two clients answering at once: one wins, the other gets 409 with the resolution; a repeat is replayed', async () => {
    const server = await serve();
    const { runId, run, interruptId, argsDigest } = await startApproval(server);
    const path = `/runs/${runId}/interrupts/${interruptId}`;
    const decisions = ['allow', 'deny'] as const;
    const responses = await Promise.all(
      decisions.map((decision) => server.request(path, { body: { decision, argsDigest } })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winnerIndex = responses.findIndex((r) => r.status === 200);
    const winner = await json(responses[winnerIndex] as Response);
    const loser = await json(responses[1 - winnerIndex] as Response);
    expect(loser).toMatchObject({
      code: 'INTERRUPT_ALREADY_RESOLVED',
      status: 409,
      details: { interrupt: winner.interrupt },
    });

    const decision = decisions[winnerIndex];
    const repeat = await server.request(path, { body: { decision, argsDigest } });
    expect([repeat.status, repeat.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await json(repeat)).toEqual(winner);
    const events = await finished(server, runId, run);
    expect(dataOf(events, 'INTERRUPT_RESOLVED').map((d) => d.decision)).toEqual([decision]);
    expect(deletionResults(events).map((d) => d.status)).toEqual([decision === 'allow' ? 'completed' : 'denied']);
  });

  it('replays an answer after its run ended with the seq of the resolution, not of the run’s end', async () => {
    const server = await serve();
    const { runId, run, interruptId, argsDigest } = await startApproval(server);
    const path = `/runs/${runId}/interrupts/${interruptId}`;
    const first = await json(await server.request(path, { body: { decision: 'allow', argsDigest } }));
    const events = await finished(server, runId, run);
    // The run is over: its record now comes from storage.
    const repeat = await server.request(path, { body: { decision: 'allow', argsDigest } });
    expect([repeat.status, repeat.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const replayed = await json(repeat);
    expect(replayed.eventSeq).toBe(first.eventSeq);
    expect(replayed.eventSeq).toBe(events.find((event) => event.type === 'INTERRUPT_RESOLVED')?.seq);
    expect(replayed.eventSeq).toBeLessThan(events.at(-1)?.seq ?? 0);
  });

  it('expiry denies fail-closed and the run goes on; a late answer is 410 INTERRUPT_EXPIRED', async () => {
    // The handler's published interruptDefaultTtlSec decides, not the engine's own default (15 min).
    const server = await serve({}, { limits: { interruptDefaultTtlSec: 0.15 } });
    const { runId, run, interruptId, argsDigest } = await startApproval(server);
    const events = await finished(server, runId, run);
    const requested = events.find((e) => e.type === 'INTERRUPT_REQUESTED') as EventEnvelope<'INTERRUPT_REQUESTED'>;
    // Stamped when the event is written, a moment after expiresAt was set from the clock.
    const lifetimeMs = Date.parse(requested.data.interrupt.expiresAt ?? '') - requested.timestamp;
    expect(lifetimeMs).toBeGreaterThan(100);
    expect(lifetimeMs).toBeLessThanOrEqual(150);
    expect(foldTypes(events)).toEqual([
      ...APPROVAL_ASKED,
      'INTERRUPT_RESOLVED',
      'RUN_STATUS_CHANGED',
      'TOOL_CALL_RESULT',
      ...ANSWER_ROUND_2,
    ]);
    expect(dataOf(events, 'INTERRUPT_RESOLVED')).toEqual([
      { interruptId, status: 'expired', decision: 'deny', resolvedBy: 'timeout' },
    ]);
    expect(deletionResults(events).map((d) => d.status)).toEqual(['denied']);
    expect(answerOf(events)).toBe('Understood: I did **not** delete draft-42.');
    const late = await server.request(`/runs/${runId}/interrupts/${interruptId}`, {
      body: { decision: 'allow', argsDigest },
    });
    expect(late.status).toBe(410);
    expect(await json(late)).toMatchObject({
      code: 'INTERRUPT_EXPIRED',
      interrupt: { id: interruptId, state: 'expired', decision: 'deny', resolvedBy: 'timeout' },
    });
  });

  it('with approvals off an ask tool is denied at once, without an interrupt', async () => {
    const server = await serve({ approvals: false });
    const { runId } = await server.createRun('alice', '/approval');
    const run = await server.follow(runId);
    const events = await finished(server, runId, run);
    expect(foldTypes(events)).toEqual([...TOOL_ROUND_1, ...DELETE_ROUND_2, 'TOOL_CALL_RESULT', ...ANSWER_ROUND_2]);
    expect(deletionResults(events).map((d) => d.status)).toEqual(['denied']);
    expect(answerOf(events)).toBe('Understood: I did **not** delete draft-42.');
  });
});

describe('cancel over HTTP with the real engine', () => {
  it('while awaiting approval: 202 cancelling, the interrupt and call are cancelled, a repeat is 200', async () => {
    const server = await serve();
    const { runId, run, interruptId, argsDigest } = await startApproval(server);
    const cancel = await server.request(`/runs/${runId}/cancel`, { body: { reason: 'changed my mind' } });
    expect(cancel.status).toBe(202);
    const accepted = await json(cancel);
    const events = await finished(server, runId, run);
    expect(foldTypes(events)).toEqual([
      ...APPROVAL_ASKED,
      'RUN_STATUS_CHANGED',
      'INTERRUPT_RESOLVED',
      'TOOL_CALL_RESULT',
      'RUN_FINISHED',
    ]);
    expect(accepted).toEqual({ status: 'cancelling', eventSeq: events[indexOfStatus(events, 'cancelling')]?.seq });
    expect(dataOf(events, 'INTERRUPT_RESOLVED')).toEqual([{ interruptId, status: 'cancelled', resolvedBy: 'cancel' }]);
    expect(deletionResults(events).map((d) => d.status)).toEqual(['cancelled']);
    expect(dataOf(events, 'RUN_FINISHED').map((d) => d.outcome)).toEqual([
      { type: 'cancelled', reason: 'changed my mind' },
    ]);

    const again = await server.request(`/runs/${runId}/cancel`, { body: {} });
    expect([again.status, await json(again)]).toEqual([200, { status: 'cancelled' }]);
    const late = await server.request(`/runs/${runId}/interrupts/${interruptId}`, {
      body: { decision: 'allow', argsDigest },
    });
    expect([late.status, (await json(late)).code]).toEqual([409, 'RUN_NOT_ACTIVE']);
  });

  it('during /slow: the open message ends cancelled before RUN_FINISHED; a pending input is reported, not lost', async () => {
    const server = await serve();
    const { runId } = await server.createRun('alice', '/slow');
    const run = await server.follow(runId);
    await run.until(hasType('TEXT_MESSAGE_CONTENT'));
    const input = await server.request(`/runs/${runId}/inputs`, {
      body: { content: [{ type: 'text', text: 'and one more thing' }] },
      headers: { 'idempotency-key': freshKey() },
    });
    expect(input.status).toBe(202);
    const { inputId, messageId } = (await json(input)) as { inputId: string; messageId: string };
    expect((await server.request(`/runs/${runId}/cancel`, { body: { reason: 'user pressed stop' } })).status).toBe(202);
    const events = await finished(server, runId, run);
    const cancelling = indexOfStatus(events, 'cancelling');
    expect(foldTypes(events.slice(cancelling)).filter((t) => t !== 'TEXT_MESSAGE_CONTENT*')).toEqual([
      'RUN_STATUS_CHANGED',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const assistant = dataOf(events, 'TEXT_MESSAGE_START').find((d) => d.role === 'assistant')?.messageId;
    expect(dataOf(events, 'TEXT_MESSAGE_END').map((d) => [d.messageId, d.finishReason])).toEqual([
      [messageId, 'stop'],
      [assistant, 'cancelled'],
    ]);
    expect(dataOf(events, 'RUN_FINISHED')).toEqual([
      { outcome: { type: 'cancelled', reason: 'user pressed stop' }, unconsumedInputIds: [inputId] },
    ]);
    expect(
      dataOf(events, 'TEXT_MESSAGE_CONTENT')
        .filter((d) => d.messageId === messageId)
        .map((d) => d.delta),
    ).toEqual(['and one more thing']);
  });
});

describe('inputs and scenarios over HTTP with the real engine', () => {
  it('an input during /slow is echoed at once and consumed by the next round', async () => {
    const server = await serve({ model: createScriptedModel({ delayMs: 1, slowDelayMs: 5, slowDurationMs: 1500 }) });
    const { runId } = await server.createRun('alice', '/slow');
    const run = await server.follow(runId);
    await run.until(hasType('TEXT_MESSAGE_CONTENT'));
    const response = await server.request(`/runs/${runId}/inputs`, {
      body: { content: [{ type: 'text', text: '/echo also this' }] },
      headers: { 'idempotency-key': freshKey() },
    });
    expect(response.status).toBe(202);
    const { inputId, messageId, eventSeq } = (await json(response)) as {
      inputId: string;
      messageId: string;
      eventSeq: number;
    };
    const echoed = await run.until((events) => events.some((e) => e.seq === eventSeq));
    expect(echoed.filter((e) => e.seq > eventSeq - 3 && e.seq <= eventSeq).map((e) => [e.type, e.data])).toEqual([
      ['TEXT_MESSAGE_START', { messageId, role: 'user', inputId }],
      ['TEXT_MESSAGE_CONTENT', { messageId, delta: '/echo also this' }],
      ['TEXT_MESSAGE_END', { messageId, finishReason: 'stop' }],
    ]);
    const events = await finished(server, runId, run);
    expect(dataOf(events, 'STEP_STARTED')).toEqual([
      { stepName: 'round:1' },
      { stepName: 'round:2', consumedInputIds: [inputId] },
    ]);
    expect(answerOf(events)).toBe('also this');
    expect(resourceFromEvents(events)).toMatchObject({ status: 'completed', unconsumedInputIds: [] });
  });

  it('/tool: the lookup completes, then the answer is built from it', async () => {
    const server = await serve();
    const { runId } = await server.createRun('alice', '/tool');
    const events = await finished(server, runId, await server.follow(runId));
    expect(foldTypes(events)).toEqual([...TOOL_ROUND_1, 'TOOL_CALL_RESULT', ...ANSWER_ROUND_2]);
    expect(dataOf(events, 'TOOL_CALL_START').map((d) => d.toolCallName)).toEqual(['orders.lookup']);
    expect(dataOf(events, 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(['completed']);
    expect(answerOf(events)?.startsWith('### Order A-1001\n\n| Field | Value |')).toBe(true);
  });

  it('/error: the failed attempt is discarded and the snapshot keeps only the retry', async () => {
    const server = await serve();
    const { runId } = await server.createRun('alice', '/error');
    const events = await finished(server, runId, await server.follow(runId));
    expect(foldTypes(events)).toEqual([
      'RUN_STARTED',
      'RUN_STATUS_CHANGED',
      'STEP_STARTED',
      ...REASONING,
      ...TEXT,
      'MESSAGE_DISCARDED',
      'MESSAGE_DISCARDED',
      'NOTICE',
      ...REASONING,
      ...TEXT,
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    const reasoning = dataOf(events, 'REASONING_START')[0]?.messageId;
    const text = dataOf(events, 'TEXT_MESSAGE_START')[0]?.messageId;
    expect(dataOf(events, 'MESSAGE_DISCARDED')).toEqual([
      { messageId: reasoning, reason: 'attempt_retry' },
      { messageId: text, reason: 'attempt_retry' },
    ]);
    // The wait before the second attempt is announced with its end.
    const notice = events.find((event) => event.type === 'NOTICE');
    expect(notice?.data).toEqual({
      level: 'info',
      code: 'MODEL_RETRYING',
      message: 'The model did not answer; trying again.',
      attempt: 2,
      retryAt: expect.any(String),
    });
    const retryAt = Date.parse(String((notice?.data as { retryAt?: string }).retryAt));
    const nextStart = events.find((event) => event.seq > (notice?.seq ?? 0) && event.type === 'REASONING_START');
    const failedAt = events.findLast((event) => event.type === 'MESSAGE_DISCARDED')?.timestamp ?? Infinity;
    // Announced after the attempt failed, and kept: the next attempt starts then, not before.
    expect(retryAt).toBeGreaterThanOrEqual(failedAt);
    expect(nextStart?.timestamp ?? 0).toBeGreaterThanOrEqual(retryAt);
    expect(nextStart?.timestamp ?? 0).toBeLessThanOrEqual(retryAt + 50);
    const snapshot = await server.resource(runId);
    expect(snapshot.messages.some((m) => m.content.includes('breaks off'))).toBe(false);
    expect(snapshot.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['reasoning', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(answerOf(events)).toBe('Recovered: the first attempt failed, was discarded and this retry succeeded.');
  });

  it('/fail: RUN_ERROR{MODEL_ERROR} with a safe message and a correlation id', async () => {
    const server = await serve();
    const { runId } = await server.createRun('alice', '/fail');
    const events = await finished(server, runId, await server.follow(runId));
    expect(foldTypes(events)).toEqual(['RUN_STARTED', 'RUN_STATUS_CHANGED', 'STEP_STARTED', ...REASONING, 'RUN_ERROR']);
    expect(dataOf(events, 'RUN_ERROR')).toEqual([
      {
        code: 'MODEL_ERROR',
        message: 'The model could not answer this request.',
        retryable: false,
        correlationId: expect.stringMatching(/^corr_/) as unknown,
      },
    ]);
    expect(JSON.stringify(events).includes('simulated fatal')).toBe(false);
    expect(server.logs.map((l) => [l.level, l.message, l.correlationId])).toContainEqual([
      'warn',
      'run ends with MODEL_ERROR',
      dataOf(events, 'RUN_ERROR')[0]?.correlationId,
    ]);
  });

  it('/loop: a tool round per round until RUN_ERROR{MAX_ITERATIONS}', async () => {
    const server = await serve({ limits: { maxRounds: 3 } });
    const { runId } = await server.createRun('alice', '/loop');
    const events = await finished(server, runId, await server.follow(runId));
    const round = ['STEP_STARTED', ...TEXT, 'TOOL_CALL_START', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'STEP_FINISHED'];
    expect(foldTypes(events)).toEqual(['RUN_STARTED', 'RUN_STATUS_CHANGED', ...round, ...round, ...round, 'RUN_ERROR']);
    expect(dataOf(events, 'RUN_ERROR').map((d) => [d.code, d.retryable])).toEqual([['MAX_ITERATIONS', false]]);
    expect(resourceFromEvents(events).status).toBe('failed');
  });
});
