import type { Interrupt, RunFinishedEvent } from '@ag-ui/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunResource } from '../../core/protocol.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import type { TestServerOptions } from '../test-support/start-test-server.ts';
import type { AgUiTestClient } from './test-support/ag-ui-client.ts';
import { createAgUiTestClient } from './test-support/ag-ui-client.ts';

const open: EngineServer[] = [];
let warnings: unknown[][] = [];
beforeEach(() => {
  warnings = [];
  // The client warns when it strips or translates something it does not expect; we send nothing of the kind.
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(handler: Omit<TestServerOptions, 'engine'> = {}): Promise<EngineServer> {
  const server = await startEngineServer({ handler });
  open.push(server);
  return server;
}

function clientOf(server: EngineServer, user = 'alice', threadId?: string): AgUiTestClient {
  return createAgUiTestClient({
    url: `${server.baseUrl}/api/agent/ag-ui`,
    user,
    ...(threadId === undefined ? {} : { threadId }),
  });
}

/** Our run behind the AG-UI run: its id rides in `RUN_STARTED.metadata['agent-chat']`. */
function ourRunId(events: readonly Record<string, unknown>[]): string {
  const started = events.find((event) => event.type === 'RUN_STARTED') as {
    metadata: Record<string, { runId: string }>;
  };
  return started.metadata['agent-chat']?.runId as string;
}

function deltasOf(events: readonly Record<string, unknown>[], type: string): string {
  return events
    .filter((event) => event.type === type)
    .map((event) => event.delta as string)
    .join('');
}

function contentOf(resource: RunResource, role: 'assistant' | 'reasoning'): string {
  return resource.messages
    .filter((message) => message.role === role)
    .map((message) => message.content)
    .join('');
}

/** A raw `POST /ag-ui` as `user` with a JSON body. */
function postAgUi(server: EngineServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/api/agent/ag-ui`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-test-user': 'alice', ...headers },
    body: JSON.stringify(body),
  });
}

function runAgentInput(runId: string, text: string, threadId = 'thread-raw'): Record<string, unknown> {
  return { threadId, runId, messages: [{ id: `m-${runId}`, role: 'user', content: text }], tools: [], context: [] };
}

describe('POST /ag-ui driven by @ag-ui/client HttpAgent', () => {
  it('streams a text answer whose concatenated deltas equal our snapshot, every event valid for @ag-ui/core', async () => {
    const server = await serve();
    const client = clientOf(server);
    const seen = await client.send('/echo The quick brown fox jumps over the lazy dog.');
    const wire = client.wireEvents();
    expect(wire.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      ...wire.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map(() => 'TEXT_MESSAGE_CONTENT'),
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(seen.map((event) => event.type)).toEqual(wire.map((event) => event.type));
    expect(client.invalidEvents()).toEqual([]);
    const resource = await server.resource(ourRunId(wire));
    expect(deltasOf(wire, 'TEXT_MESSAGE_CONTENT')).toBe('The quick brown fox jumps over the lazy dog.');
    expect(deltasOf(wire, 'TEXT_MESSAGE_CONTENT')).toBe(contentOf(resource, 'assistant'));
    expect(client.agent.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'assistant', content: contentOf(resource, 'assistant') }),
    );
    expect(resource.messages[0]).toEqual(expect.objectContaining({ role: 'user', clientMessageId: 'user-1' }));
    expect(wire.at(-1)).toEqual(expect.objectContaining({ type: 'RUN_FINISHED', outcome: { type: 'success' } }));
    expect(warnings).toEqual([]);
  });

  it('streams reasoning as REASONING_* with the text of our reasoning message', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('hello');
    const wire = client.wireEvents();
    const types = wire.map((event) => event.type);
    expect(types.slice(0, 4)).toEqual(['RUN_STARTED', 'STEP_STARTED', 'REASONING_START', 'REASONING_MESSAGE_START']);
    const reasoningEnd = types.indexOf('REASONING_END');
    expect(types[reasoningEnd - 1]).toBe('REASONING_MESSAGE_END');
    expect(types[reasoningEnd + 1]).toBe('TEXT_MESSAGE_START');
    expect(client.invalidEvents()).toEqual([]);
    const resource = await server.resource(ourRunId(wire));
    expect(deltasOf(wire, 'REASONING_MESSAGE_CONTENT')).toBe(contentOf(resource, 'reasoning'));
    expect(deltasOf(wire, 'TEXT_MESSAGE_CONTENT')).toBe(contentOf(resource, 'assistant'));
    expect(contentOf(resource, 'reasoning').length).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });

  it('streams a server tool call with its arguments, digest and result', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('/tool');
    const wire = client.wireEvents();
    expect(client.invalidEvents()).toEqual([]);
    const resource = await server.resource(ourRunId(wire));
    const [call] = resource.toolCalls;
    const toolEvents = wire.filter((event) => String(event.type).startsWith('TOOL_CALL_'));
    expect(toolEvents).toEqual([
      {
        type: 'TOOL_CALL_START',
        toolCallId: call?.toolCallId,
        toolCallName: 'orders.lookup',
        parentMessageId: call?.parentMessageId,
        metadata: { 'agent-chat': { title: 'Look up an order' } },
      },
      { type: 'TOOL_CALL_ARGS', toolCallId: call?.toolCallId, delta: JSON.stringify(call?.args) },
      {
        type: 'TOOL_CALL_END',
        toolCallId: call?.toolCallId,
        metadata: { 'agent-chat': { argsDigest: call?.argsDigest } },
      },
      {
        type: 'TOOL_CALL_RESULT',
        messageId: call?.result?.messageId,
        toolCallId: call?.toolCallId,
        content: call?.result?.content,
        role: 'tool',
        metadata: { 'agent-chat': { status: 'completed' } },
      },
    ]);
    expect(client.agent.messages.find((message) => message.role === 'tool')).toEqual(
      expect.objectContaining({ toolCallId: call?.toolCallId, content: call?.result?.content }),
    );
    expect(deltasOf(wire, 'TEXT_MESSAGE_CONTENT')).toBe(contentOf(resource, 'assistant'));
  });

  it('streams tool progress as ACTIVITY_SNAPSHOT events of one activity message per call', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('/progress');
    const wire = client.wireEvents();
    expect(client.invalidEvents()).toEqual([]);
    const resource = await server.resource(ourRunId(wire));
    const [call] = resource.toolCalls;
    const activities = wire.filter((event) => event.type === 'ACTIVITY_SNAPSHOT');
    expect(activities.length).toBeGreaterThan(0);
    expect(new Set(activities.map((event) => event.messageId))).toEqual(new Set([`progress_${call?.toolCallId}`]));
    expect(activities.at(-1)).toEqual({
      type: 'ACTIVITY_SNAPSHOT',
      messageId: `progress_${call?.toolCallId}`,
      activityType: 'tool_progress',
      content: { toolCallId: call?.toolCallId, ...call?.progress },
    });
    expect(client.agent.messages.filter((message) => message.role === 'activity')).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('ends an AG-UI run at an approval with an interrupt, and a resume with the digest runs the tool in the same run of ours', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('/approval');
    const first = [...client.wireEvents()];
    const finished = first.at(-1) as unknown as RunFinishedEvent;
    expect(finished.outcome?.type).toBe('interrupt');
    const [interrupt] = (finished.outcome as { interrupts: Interrupt[] }).interrupts;
    const runId = ourRunId(first);
    const waiting = await server.resource(runId);
    const call = waiting.toolCalls.find((candidate) => candidate.name === 'drafts.delete');
    expect(waiting.status).toBe('awaiting_input');
    expect(interrupt).toEqual({
      id: waiting.interrupts[0]?.id,
      reason: 'tool_call',
      message: waiting.interrupts[0]?.message,
      toolCallId: call?.toolCallId,
      responseSchema: {
        type: 'object',
        properties: {
          decision: { enum: ['allow', 'deny'] },
          argsDigest: { const: call?.argsDigest },
          reason: { type: 'string' },
        },
        required: ['decision', 'argsDigest'],
        additionalProperties: false,
      },
      expiresAt: waiting.interrupts[0]?.expiresAt,
      // The interrupt's own metadata passes through: drafts.delete is declared destructive, and words its question.
      metadata: {
        destructive: true,
        summary: 'Delete the draft "Quarterly report (unfinished)"?',
        consequence: "This can't be undone.",
        'agent-chat': { argsDigest: call?.argsDigest },
      },
    });
    expect(client.agent.pendingInterrupts.map((pending) => pending.id)).toEqual([interrupt?.id]);

    await client.resume([
      {
        interruptId: interrupt?.id as string,
        status: 'resolved',
        payload: { decision: 'allow', argsDigest: call?.argsDigest },
      },
    ]);
    const second = client.wireEvents().slice(first.length);
    expect(second[0]).toEqual(expect.objectContaining({ type: 'RUN_STARTED' }));
    expect(ourRunId(second)).toBe(runId);
    expect(second.find((event) => event.type === 'TOOL_CALL_RESULT')).toEqual(
      expect.objectContaining({ toolCallId: call?.toolCallId, metadata: { 'agent-chat': { status: 'completed' } } }),
    );
    expect(second.at(-1)).toEqual(expect.objectContaining({ type: 'RUN_FINISHED', outcome: { type: 'success' } }));
    expect(client.invalidEvents()).toEqual([]);
    const done = await server.resource(runId);
    expect(done.status).toBe('completed');
    expect(done.interrupts).toEqual([expect.objectContaining({ state: 'resolved', decision: 'allow' })]);
    expect(deltasOf(second, 'TEXT_MESSAGE_CONTENT')).toContain('Done: **draft-42** was deleted.');
    expect(deltasOf([...first, ...second], 'TEXT_MESSAGE_CONTENT')).toBe(contentOf(done, 'assistant'));
    expect(client.agent.pendingInterrupts).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('refuses a resume whose digest is not the shown arguments’ (412) and keeps the approval open', async () => {
    const server = await serve();
    const client = clientOf(server, 'alice', 'thread-digest');
    await client.send('/approval');
    const finished = client.wireEvents().at(-1) as unknown as RunFinishedEvent;
    const [interrupt] = (finished.outcome as { interrupts: Interrupt[] }).interrupts;
    const response = await postAgUi(server, {
      threadId: 'thread-digest',
      runId: 'resume-with-a-wrong-digest',
      messages: [],
      resume: [
        { interruptId: interrupt?.id, status: 'resolved', payload: { decision: 'allow', argsDigest: 'sha256:forged' } },
      ],
    });
    expect(response.status).toBe(412);
    expect(await response.json()).toEqual(expect.objectContaining({ code: 'ARGS_DIGEST_MISMATCH' }));
    expect((await server.resource(ourRunId(client.wireEvents()))).interrupts[0]?.state).toBe('open');
  });

  it('a resume with status cancelled denies the approval: the tool is not run', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('/approval');
    const first = [...client.wireEvents()];
    const [interrupt] = ((first.at(-1) as unknown as RunFinishedEvent).outcome as { interrupts: Interrupt[] })
      .interrupts;
    await client.resume([{ interruptId: interrupt?.id as string, status: 'cancelled' }]);
    const done = await server.resource(ourRunId(first));
    expect(done.interrupts).toEqual([expect.objectContaining({ state: 'resolved', decision: 'deny' })]);
    expect(done.toolCalls.find((call) => call.name === 'drafts.delete')?.status).toBe('denied');
    expect(done.status).toBe('completed');
  });

  it('an aborted HttpAgent run cancels our run (AG-UI has no cancel request)', async () => {
    const server = await serve();
    const client = clientOf(server);
    let aborted = false;
    client.agent.subscribe({
      onTextMessageContentEvent: () => {
        if (aborted) return;
        aborted = true;
        client.agent.abortRun();
      },
    });
    await client.send('/slow');
    const runId = ourRunId(client.wireEvents());
    await expect.poll(async () => (await server.resource(runId)).status, { timeout: 10_000 }).toBe('cancelled');
    const resource = await server.resource(runId);
    expect(resource.outcome).toEqual({ type: 'cancelled', reason: 'ag-ui client disconnected' });
  });

  it('streams a model error as RUN_ERROR with our code and safe message', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('/fail');
    const wire = client.wireEvents();
    expect(client.invalidEvents()).toEqual([]);
    const resource = await server.resource(ourRunId(wire));
    expect(wire.at(-1)).toEqual({
      type: 'RUN_ERROR',
      message: resource.error?.message,
      code: 'MODEL_ERROR',
      metadata: { 'agent-chat': { retryable: false, correlationId: resource.error?.correlationId } },
    });
    expect(resource.status).toBe('failed');
  });

  it('tells of a retracted attempt and the wait for the next with custom events, and the retry’s answer follows', async () => {
    const server = await serve();
    const client = clientOf(server);
    await client.send('/error');
    const wire = client.wireEvents();
    expect(client.invalidEvents()).toEqual([]);
    const resource = await server.resource(ourRunId(wire));
    const firstCustom = wire.findIndex((event) => event.type === 'CUSTOM');
    const attempt = wire
      .slice(0, firstCustom)
      .filter((event) => event.type === 'TEXT_MESSAGE_START' || event.type === 'REASONING_MESSAGE_START')
      .map((event) => event.messageId as string);
    expect(attempt).toHaveLength(2);
    expect(wire.filter((event) => event.type === 'CUSTOM')).toEqual([
      ...attempt.map((messageId) => ({
        type: 'CUSTOM',
        name: 'agent-chat.message_discarded',
        value: { messageId, reason: 'attempt_retry' },
      })),
      // The wait before the next attempt, for a client to say "Retrying in 1 s…".
      {
        type: 'CUSTOM',
        name: 'agent-chat.notice',
        value: expect.objectContaining({ code: 'MODEL_RETRYING', attempt: 2, retryAt: expect.any(String) }),
      },
    ]);
    const kept = resource.messages.map((message) => message.messageId);
    expect(kept.filter((messageId) => attempt.includes(messageId))).toEqual([]);
    expect(deltasOf(wire.slice(firstCustom), 'TEXT_MESSAGE_CONTENT')).toBe(contentOf(resource, 'assistant'));
    expect(wire.at(-1)).toEqual(expect.objectContaining({ type: 'RUN_FINISHED', outcome: { type: 'success' } }));
  });

  it('keeps a thread in one session of ours: the second turn sees the first in its history', async () => {
    const server = await serve();
    const client = clientOf(server, 'alice', 'thread-two-turns');
    await client.send('/echo first');
    const firstRun = ourRunId(client.wireEvents());
    const count = client.wireEvents().length;
    await client.send('/echo second');
    const secondRun = ourRunId(client.wireEvents().slice(count));
    const [first, second] = await Promise.all([server.resource(firstRun), server.resource(secondRun)]);
    expect(second.sessionId).toBe(first.sessionId);
    const sessionResponse = await server.request(`/sessions/${first.sessionId}/messages`);
    const history = (await sessionResponse.json()) as { items: { content: string }[] };
    expect(history.items.map((message) => message.content).reverse()).toEqual([
      '/echo first',
      'first',
      '/echo second',
      'second',
    ]);
  });
});

describe('POST /ag-ui: branches (docs/ag-ui.md, "Branches")', () => {
  /** The SSE data frames of an AG-UI answer, parsed. */
  async function framesOf(response: Response): Promise<Record<string, unknown>[]> {
    const text = await response.text();
    return text.split('\n').flatMap((line) => (line.startsWith('data: ') ? [JSON.parse(line.slice(6))] : []));
  }

  it('a client that cut its messages after an earlier answer branches there; the model sees that branch only', async () => {
    const server = await serve();
    const threadId = 'thread-branch';
    const one = { id: 'u-one', role: 'user', content: '/echo One' };
    const first = await framesOf(
      await postAgUi(server, { ...runAgentInput('branch-run-1', '', threadId), messages: [one] }),
    );
    const answer = first.find((frame) => frame.type === 'TEXT_MESSAGE_START') as { messageId: string };
    const answerOne = { id: answer.messageId, role: 'assistant', content: 'One' };
    const two = { id: 'u-two', role: 'user', content: '/echo Two' };
    await framesOf(
      await postAgUi(server, { ...runAgentInput('branch-run-2', '', threadId), messages: [one, answerOne, two] }),
    );
    // Regenerate the second turn: the client cuts its messages after the first answer.
    const again = await framesOf(
      await postAgUi(server, {
        ...runAgentInput('branch-run-3', '', threadId),
        messages: [one, answerOne, { id: 'u-context', role: 'user', content: '/context' }],
      }),
    );
    expect(deltasOf(again, 'TEXT_MESSAGE_CONTENT')).toContain('Asked before: “/echo One”.');
    const { sessionId } = (
      again.find((frame) => frame.type === 'RUN_STARTED') as { metadata: Record<string, { sessionId: string }> }
    ).metadata['agent-chat'] as { sessionId: string };
    const history = (await (await server.request(`/sessions/${sessionId}/messages`, { user: 'alice' })).json()) as {
      items: { content: string; role: string; branchMessageIds?: string[] }[];
    };
    expect(
      history.items
        .map((message) => message.content)
        .toReversed()
        .slice(0, 3),
    ).toEqual(['/echo One', 'One', '/context']);
    expect(history.items.find((message) => message.content === '/context')?.branchMessageIds).toHaveLength(2);

    // An id that is not ours continues the branch shown.
    const onward = await framesOf(
      await postAgUi(server, {
        ...runAgentInput('branch-run-4', '', threadId),
        messages: [
          { id: 'client-only', role: 'assistant', content: '?' },
          { id: 'u-next', role: 'user', content: '/context' },
        ],
      }),
    );
    expect(deltasOf(onward, 'TEXT_MESSAGE_CONTENT')).toContain('Asked before: “/echo One”, “/context”.');
  });
});

describe('POST /ag-ui: idempotency, limits and the edge checks', () => {
  it('a retried POST with the same runId replays the same AG-UI run and never starts a second run', async () => {
    const server = await serve();
    const body = runAgentInput('retried-run-0001', '/echo once only', 'thread-retry');
    const first = await (await postAgUi(server, body)).text();
    const replay = await postAgUi(server, body);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe(first);
    expect(await server.handler.store.counts()).toEqual({ sessions: 1, runs: 1 });
    const reused = await postAgUi(server, runAgentInput('retried-run-0001', '/echo something else', 'thread-retry'));
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual(expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED' }));
  });

  it('applies the field limits of a create to the turn it reads', async () => {
    const server = await serve({ limits: { maxInputChars: 10 } });
    const response = await postAgUi(server, runAgentInput('too-long-run', 'x'.repeat(11)));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        details: { field: 'content', limit: 'maxInputChars', maxInputChars: 10, actual: 11 },
      }),
    );
    const longId = await postAgUi(server, runAgentInput('r'.repeat(129), 'hi'));
    expect(((await longId.json()) as { details: unknown }).details).toEqual({
      field: 'runId',
      limit: 'maxIdChars',
      maxIdChars: 128,
      actual: 129,
    });
  });

  it('refuses a body that is not a RunAgentInput, or a turn that is not text', async () => {
    const server = await serve();
    const missing = await postAgUi(server, { threadId: 't', runId: 'r' });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'messages', reason: 'ag_ui_schema' } }),
    );
    const image = await postAgUi(server, {
      ...runAgentInput('image-run', ''),
      messages: [
        {
          id: 'm1',
          role: 'user',
          content: [{ type: 'image', source: { type: 'url', value: 'https://example.com/a.png' } }],
        },
      ],
    });
    expect(image.status).toBe(422);
    expect(await image.json()).toEqual(expect.objectContaining({ code: 'UNSUPPORTED_CONTENT' }));
    const noTurn = await postAgUi(server, {
      ...runAgentInput('assistant-last', ''),
      messages: [{ id: 'm1', role: 'assistant', content: 'hi' }],
    });
    expect(await noTurn.json()).toEqual(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'messages', reason: 'no_user_turn' } }),
    );
  });

  it('counts new turns against runsPerMinute (429 + Retry-After), and a replay against nothing', async () => {
    const server = await serve({ limits: { runsPerMinute: 1 } });
    const body = runAgentInput('rate-run-0001', '/echo a', 'thread-rate');
    await (await postAgUi(server, body)).text();
    const limited = await postAgUi(server, runAgentInput('rate-run-0002', '/echo b', 'thread-rate'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toEqual(
      expect.objectContaining({ code: 'RATE_LIMITED', details: { limit: 'runsPerMinute', runsPerMinute: 1 } }),
    );
    expect((await postAgUi(server, body)).status).toBe(200);
  });

  it('counts an invalid body too (after the runId lookup), so a flood of bad bodies is throttled like good ones', async () => {
    const server = await serve({ limits: { runsPerMinute: 1, interruptAnswersPerMinute: 2 } });
    const invalid = await postAgUi(server, { threadId: 'thread-flood', runId: 'flood-run-0001', messages: 'nope' });
    expect(invalid.status).toBe(422);
    const valid = await postAgUi(server, runAgentInput('flood-run-0002', '/echo a', 'thread-flood'));
    expect(valid.status).toBe(429);
    const answers = [1, 2, 3].map((n) => ({ interruptId: `int_${n}`, status: 'cancelled' }));
    const resume = await postAgUi(server, {
      threadId: 'thread-flood',
      runId: 'flood-run-0003',
      messages: [],
      resume: answers,
    });
    expect(resume.status).toBe(429);
    expect(await resume.json()).toEqual(
      expect.objectContaining({ details: { limit: 'interruptAnswersPerMinute', interruptAnswersPerMinute: 2 } }),
    );
  });

  it('guards against cross-site requests with the JSON body, and checks an identity binding when one is sent', async () => {
    const server = await serve();
    const form = await fetch(`${server.baseUrl}/api/agent/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-test-user': 'alice' },
      body: JSON.stringify(runAgentInput('csrf-run', 'hi')),
    });
    expect(form.status).toBe(415);
    const empty = await fetch(`${server.baseUrl}/api/agent/ag-ui`, {
      method: 'POST',
      headers: { 'x-test-user': 'alice' },
    });
    expect(empty.status).toBe(415);
    const changed = await postAgUi(server, runAgentInput('identity-run', 'hi'), {
      'x-agent-identity': 'idn_someone_else',
    });
    expect(changed.status).toBe(409);
    expect(await changed.json()).toEqual(expect.objectContaining({ code: 'IDENTITY_CHANGED' }));
    const anonymous = await fetch(`${server.baseUrl}/api/agent/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runAgentInput('anon-run', 'hi')),
    });
    expect(anonymous.status).toBe(401);
    expect((await fetch(`${server.baseUrl}/api/agent/ag-ui`)).status).toBe(405);
  });

  it('keeps threads apart per user: another user’s thread id starts a session of their own', async () => {
    const server = await serve();
    const alice = clientOf(server, 'alice', 'shared-thread-name');
    await alice.send('/echo alice');
    const bob = clientOf(server, 'bob', 'shared-thread-name');
    await bob.send('/echo bob');
    const aliceRun = await server.resource(ourRunId(alice.wireEvents()), 'alice');
    const bobRun = await server.resource(ourRunId(bob.wireEvents()), 'bob');
    expect(bobRun.sessionId).not.toBe(aliceRun.sessionId);
    expect(bob.agent.messages.map((message) => message.content)).toEqual(['/echo bob', 'bob']);
  });
});
