import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/protocol.ts';
import type { SettledToolCall } from '../storage/storage-port.ts';
import { createOpenAiCompatibleModel } from '../models/openai-compatible-model.ts';
import { createScriptedModel } from '../models/scripted-model.ts';
import type { FakeReply } from '../models/test-support/fake-openai-server.ts';
import { sseChunk, startFakeOpenAiServer } from '../models/test-support/fake-openai-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';
import { createRunEngine } from './create-run-engine.ts';
import { DEFAULT_KERNEL_PROMPT } from './engine-settings.ts';
import { buildHistoryTurns } from './history-turns.ts';

const message = (runId: string, messageId: string, role: 'user' | 'assistant', content: string): SnapshotMessage => ({
  messageId,
  role,
  content,
  status: 'complete',
  runId,
});

const call = (
  runId: string,
  toolCallId: string,
  parentMessageId: string | undefined,
  content: string,
  status: SettledToolCall['status'] = 'completed',
): SettledToolCall => ({
  runId,
  toolCallId,
  name: 'orders.lookup',
  args: { orderId: toolCallId },
  argsDigest: 'sha256:x',
  status,
  ...(parentMessageId === undefined ? {} : { parentMessageId }),
  result: { messageId: `res_${toolCallId}`, content },
});

describe('buildHistoryTurns', () => {
  it('leaves out the user messages a run never answered, and a run left empty by that', () => {
    const turns = buildHistoryTurns({
      messages: [
        message('run_1', 'u1', 'user', 'Where is A?'),
        message('run_2', 'u2', 'user', 'Where is A, please?'),
        message('run_2', 'a2', 'assistant', 'A shipped.'),
        message('run_2', 'u3', 'user', 'And B?'),
      ],
      toolCalls: [],
      maxResultChars: 100,
    });
    expect(turns.map((turn) => [turn.runId, turn.messages])).toEqual([
      [
        'run_2',
        [
          { role: 'user', content: 'Where is A, please?' },
          { role: 'assistant', content: 'A shipped.' },
        ],
      ],
    ]);
  });

  it('puts each tool call right after the text that made it, paired with its result by id', () => {
    const turns = buildHistoryTurns({
      messages: [
        message('run_1', 'u1', 'user', 'Where are A and B?'),
        message('run_1', 'a1', 'assistant', 'Looking both up.'),
        message('run_1', 'a2', 'assistant', 'A shipped, B was denied.'),
      ],
      toolCalls: [call('run_1', 'tc_a', 'a1', 'shipped'), call('run_1', 'tc_b', 'a1', 'no', 'denied')],
      maxResultChars: 100,
    });
    expect(turns).toHaveLength(1);
    expect(turns[0]?.messages).toEqual([
      { role: 'user', content: 'Where are A and B?' },
      {
        role: 'assistant',
        content: 'Looking both up.',
        toolCalls: [
          { id: 'tc_a', name: 'orders.lookup', arguments: '{"orderId":"tc_a"}' },
          { id: 'tc_b', name: 'orders.lookup', arguments: '{"orderId":"tc_b"}' },
        ],
      },
      { role: 'tool', toolCallId: 'tc_a', content: 'shipped', status: 'completed' },
      { role: 'tool', toolCallId: 'tc_b', content: 'no', status: 'denied' },
      { role: 'assistant', content: 'A shipped, B was denied.' },
    ]);
  });

  it('places a round without text after the round before it, and keeps runs apart, oldest first', () => {
    const turns = buildHistoryTurns({
      messages: [
        message('run_1', 'u1', 'user', 'first'),
        message('run_1', 'a1', 'assistant', 'done one'),
        message('run_2', 'u2', 'user', 'second'),
        message('run_2', 'a2', 'assistant', 'checking'),
        message('run_2', 'a3', 'assistant', 'done two'),
      ],
      toolCalls: [
        call('run_1', 'tc_1', undefined, 'r1'),
        call('run_2', 'tc_2', 'a2', 'r2'),
        call('run_2', 'tc_3', undefined, 'r3'),
      ],
      maxResultChars: 100,
    });
    expect(turns.map((turn) => turn.runId)).toEqual(['run_1', 'run_2']);
    expect(turns.map((turn) => turn.messages.map((m) => `${m.role}:${m.content || '∅'}`))).toEqual([
      ['user:first', 'assistant:∅', 'tool:r1', 'assistant:done one'],
      ['user:second', 'assistant:checking', 'tool:r2', 'assistant:∅', 'tool:r3', 'assistant:done two'],
    ]);
    // 'first' 5 + '' with orders.lookup {"orderId":"tc_1"} 31 + 'r1' 2 + 'done one' 8, plus 16 per message.
    expect(turns[0]?.chars).toBe(110);
  });

  it('says a result was truncated, and gives a call without a result one anyway', () => {
    const cut = {
      ...call('run_1', 'tc_1', 'a1', 'x'.repeat(10)),
      result: { messageId: 'r', content: 'xx', truncated: true },
    };
    const lost: SettledToolCall = { ...call('run_1', 'tc_2', 'a1', ''), status: 'running' };
    delete lost.result;
    const [turn] = buildHistoryTurns({
      messages: [message('run_1', 'u1', 'user', 'go'), message('run_1', 'a1', 'assistant', 'on it')],
      toolCalls: [cut, lost],
      maxResultChars: 2,
    });
    expect(turn?.messages.slice(2)).toEqual([
      { role: 'tool', toolCallId: 'tc_1', content: 'xx\n[truncated to 2 characters]', status: 'completed' },
      { role: 'tool', toolCallId: 'tc_2', content: 'The call has no recorded result.', status: 'unknown' },
    ]);
  });
});

describe('the history a provider receives after a failed turn (over HTTP)', () => {
  it('never has two user messages in a row: the unanswered message is left out, the answered turns stay', async () => {
    const provider = await startFakeOpenAiServer();
    const server = await startTestServer({
      engine: createRunEngine({
        model: createOpenAiCompatibleModel({ baseUrl: provider.baseUrl, model: 'm-test' }),
        log: () => undefined,
      }),
    });
    try {
      const answer = (text: string): FakeReply => ({
        kind: 'stream',
        pieces: [
          sseChunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] }),
          'data: [DONE]\n\n',
        ],
      });
      provider.reply(
        { kind: 'http', status: 400, body: '{"error":{"message":"bad request"}}' },
        answer('On its way.'),
        answer('You are welcome.'),
      );
      const send = async (text: string, sessionId?: string) => {
        const run = await server.createRun('alice', text, sessionId === undefined ? {} : { sessionId });
        let status = '';
        await expect
          .poll(async () => {
            ({ status } = (await (await server.request(`/runs/${run.runId}`)).json()) as { status: string });
            return ['completed', 'failed', 'cancelled', 'expired'].includes(status);
          })
          .toBe(true);
        return { ...run, status };
      };
      const failed = await send('Where is A-1?');
      expect(failed.status).toBe('failed');
      // The page sends the same question again (today's Retry), then goes on.
      expect((await send('Where is A-1?', failed.sessionId)).status).toBe('completed');
      expect((await send('Thanks!', failed.sessionId)).status).toBe('completed');
      const system = { role: 'system', content: DEFAULT_KERNEL_PROMPT };
      expect(provider.requests.map((request) => request.body['messages'])).toEqual([
        [system, { role: 'user', content: 'Where is A-1?' }],
        [system, { role: 'user', content: 'Where is A-1?' }],
        [
          system,
          { role: 'user', content: 'Where is A-1?' },
          { role: 'assistant', content: 'On its way.' },
          { role: 'user', content: 'Thanks!' },
        ],
      ]);
    } finally {
      await server.close();
      await provider.close();
    }
  });
});

describe('a retry of a failed turn (retryOf, over HTTP)', () => {
  it('sends the provider one user message and never the failed half answer, then keeps only the retried turn', async () => {
    const provider = await startFakeOpenAiServer();
    const server = await startTestServer({
      engine: createRunEngine({
        model: createOpenAiCompatibleModel({ baseUrl: provider.baseUrl, model: 'm-test' }),
        limits: { maxRetries: 0 },
        log: () => undefined,
      }),
    });
    try {
      const piece = (text: string, finish: string | null = null) =>
        sseChunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: finish }] });
      provider.reply(
        // The first answer breaks off mid-stream: the run fails with half an answer on screen.
        { kind: 'stream', pieces: [piece('A-1 is on')], cut: true },
        { kind: 'stream', pieces: [piece('A-1 shipped today.', 'stop'), 'data: [DONE]\n\n'] },
        { kind: 'stream', pieces: [piece('You are welcome.', 'stop'), 'data: [DONE]\n\n'] },
      );
      const settle = async (runId: string): Promise<string> => {
        let status = '';
        await expect
          .poll(async () => {
            ({ status } = (await (await server.request(`/runs/${runId}`)).json()) as { status: string });
            return ['completed', 'failed', 'cancelled', 'expired'].includes(status);
          })
          .toBe(true);
        return status;
      };
      const failed = await server.createRun('alice', 'Where is A-1?');
      expect(await settle(failed.runId)).toBe('failed');
      const { sessionId } = failed;
      const retry = await server.createRun('alice', 'Where is A-1?', { sessionId, retryOf: failed.runId });
      expect(await settle(retry.runId)).toBe('completed');
      const later = await server.createRun('alice', 'Thanks!', { sessionId });
      expect(await settle(later.runId)).toBe('completed');
      // The failed run is answered already: a second retry of it (another key) is refused.
      const stale = await server.request('/runs', {
        user: 'alice',
        body: {
          agentVersionId: 'agv_demo_1',
          input: { content: [{ type: 'text', text: 'x' }] },
          sessionId,
          retryOf: failed.runId,
        },
        headers: { 'idempotency-key': freshKey() },
      });
      expect(stale.status).toBe(409);
      expect(await stale.json()).toMatchObject({ code: 'RUN_NOT_RETRYABLE' });
      const system = { role: 'system', content: DEFAULT_KERNEL_PROMPT };
      const question = { role: 'user', content: 'Where is A-1?' };
      expect(provider.requests.map((request) => request.body['messages'])).toEqual([
        [system, question],
        [system, question],
        [system, question, { role: 'assistant', content: 'A-1 shipped today.' }, { role: 'user', content: 'Thanks!' }],
      ]);
      const page = (await (await server.request(`/sessions/${sessionId}/messages`)).json()) as {
        items: { runId: string; role: string }[];
      };
      expect(page.items.map((m) => [m.runId, m.role])).toEqual([
        [later.runId, 'assistant'],
        [later.runId, 'user'],
        [retry.runId, 'assistant'],
        [retry.runId, 'user'],
      ]);
    } finally {
      await server.close();
      await provider.close();
    }
  });

  it("refuses a retry of a completed run, of another session's or user's run, and one without its session", async () => {
    const server = await startTestServer({
      engine: createRunEngine({ model: createScriptedModel(), log: () => undefined }),
    });
    try {
      const create = (user: string, extra: Record<string, unknown>) =>
        server.request('/runs', {
          user,
          body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'again' }] }, ...extra },
          headers: { 'idempotency-key': freshKey() },
        });
      const done = await server.createRun('alice', '/echo done');
      await expect
        .poll(async () => ((await (await server.request(`/runs/${done.runId}`)).json()) as { status: string }).status)
        .toBe('completed');
      const completed = await create('alice', { sessionId: done.sessionId, retryOf: done.runId });
      expect(completed.status).toBe(409);
      expect(await completed.json()).toMatchObject({ code: 'RUN_NOT_RETRYABLE', details: { status: 'completed' } });
      const other = await server.createRun('alice', '/echo elsewhere');
      const elsewhere = await create('alice', { sessionId: other.sessionId, retryOf: done.runId });
      expect(elsewhere.status).toBe(404);
      const stranger = await create('bob', { sessionId: done.sessionId, retryOf: done.runId });
      expect(stranger.status).toBe(404);
      const withoutSession = await create('alice', { retryOf: done.runId });
      expect(withoutSession.status).toBe(422);
      expect(await withoutSession.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'sessionId' } });
    } finally {
      await server.close();
    }
  });
});
