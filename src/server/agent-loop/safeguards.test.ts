import { describe, expect, it } from 'vitest';
import { ModelError } from '../models/model-adapter.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, startEngine } from './test-support/run-engine-harness.ts';

const answer = [
  { type: 'text' as const, delta: 'Final answer.' },
  { type: 'finish' as const, reason: 'stop' as const },
];

describe('safeguards end the run with their own code', () => {
  it('/loop hits the default round cap of 8: MAX_ITERATIONS', async () => {
    const run = startEngine('/loop');
    await run.done;
    expect(dataOf(run.events(), 'STEP_STARTED').map((d) => d.stepName)).toEqual([
      'round:1',
      'round:2',
      'round:3',
      'round:4',
      'round:5',
      'round:6',
      'round:7',
      'round:8',
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(Array(8).fill('completed'));
    expect(dataOf(run.events(), 'RUN_ERROR')).toEqual([
      {
        code: 'MAX_ITERATIONS',
        message: 'The agent reached its limit of 8 rounds without finishing.',
        retryable: false,
        correlationId: 'corr_1',
        usage: [run.handle.snapshot().usage?.[0]],
        costUsd: '0.000000000000',
      },
    ]);
    expect(run.handle.snapshot().status).toBe('failed');
  });

  it('/error retracts the failed attempt with MESSAGE_DISCARDED and succeeds on retry', async () => {
    const run = startEngine('/error');
    await run.done;
    const types = run.types();
    const firstEnd = dataOf(run.events(), 'TEXT_MESSAGE_END')[0];
    expect(firstEnd).toEqual({ messageId: 'msg_2', finishReason: 'error' });
    expect(dataOf(run.events(), 'MESSAGE_DISCARDED')).toEqual([
      { messageId: 'msg_1', reason: 'attempt_retry' },
      { messageId: 'msg_2', reason: 'attempt_retry' },
    ]);
    expect(types.indexOf('MESSAGE_DISCARDED') > types.indexOf('TEXT_MESSAGE_END')).toBe(true);
    const snapshot = run.handle.snapshot();
    expect(snapshot.status).toBe('completed');
    expect(snapshot.messages.map((m) => [m.messageId, m.role])).toEqual([
      ['msg_user', 'user'],
      ['msg_3', 'reasoning'],
      ['msg_4', 'assistant'],
    ]);
    expect(snapshot.messages.some((m) => m.content.includes('breaks off'))).toBe(false);
    expect(snapshot.messages[2]?.content).toBe(
      'Recovered: the first attempt failed, was discarded and this retry succeeded.',
    );
  });

  it('/fail ends with MODEL_ERROR and a safe message; the provider text stays in the server log', async () => {
    const run = startEngine('/fail');
    await run.done;
    expect(dataOf(run.events(), 'RUN_ERROR')).toEqual([
      {
        code: 'MODEL_ERROR',
        message: 'The model could not answer this request.',
        retryable: false,
        correlationId: 'corr_1',
      },
    ]);
    expect(JSON.stringify(run.events()).includes('simulated fatal')).toBe(false);
    expect(run.logs.some((entry) => entry.detail === 'scripted: simulated fatal error')).toBe(true);
    expect(run.types().slice(-3)).toEqual(['REASONING_MESSAGE_END', 'REASONING_END', 'RUN_ERROR']);
  });

  it('gives up after 3 retries of a retryable error: MODEL_ERROR, the last attempt kept as error', async () => {
    const failing = [
      { type: 'text' as const, delta: 'partial' },
      { type: 'throw' as const, error: new ModelError('The model service is busy.', { retryable: true, status: 503 }) },
    ];
    const model = createListModel([failing]);
    const run = startEngine('go', { model });
    await run.done;
    expect(model.requests.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    expect(dataOf(run.events(), 'NOTICE').map((d) => [d.code, d.attempt])).toEqual([
      ['MODEL_RETRYING', 2],
      ['MODEL_RETRYING', 3],
      ['MODEL_RETRYING', 4],
    ]);
    expect(dataOf(run.events(), 'MESSAGE_DISCARDED').map((d) => d.messageId)).toEqual(['msg_1', 'msg_2', 'msg_3']);
    expect(run.handle.snapshot().messages.map((m) => [m.messageId, m.status])).toEqual([
      ['msg_user', 'complete'],
      ['msg_4', 'error'],
    ]);
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => [d.code, d.message])).toEqual([
      ['MODEL_ERROR', 'The model service is busy.'],
    ]);
  });

  it('honours a provider Retry-After instead of the backoff', async () => {
    const model = createListModel([
      [{ type: 'throw', error: new ModelError('Rate limited.', { retryable: true, status: 429, retryAfterMs: 7000 }) }],
      answer,
    ]);
    const run = startEngine('go', { model });
    await run.done;
    const events = run.events();
    expect((events.at(-1)?.timestamp ?? 0) - (events[0]?.timestamp ?? 0)).toBe(7000);
    expect(run.handle.snapshot().status).toBe('completed');
    // The user is told when the second attempt starts.
    const notice = events.find((event) => event.type === 'NOTICE');
    expect(notice?.data).toMatchObject({ code: 'MODEL_RETRYING', attempt: 2 });
    expect(Date.parse(String((notice?.data as { retryAt?: string }).retryAt))).toBe((notice?.timestamp ?? 0) + 7000);
  });

  it('an attempt that times out is retried, then ends with MODEL_TIMEOUT', async () => {
    const run = startEngine('/slow', { limits: { attemptTimeoutMs: 1000, maxRetries: 1 } });
    await run.done;
    expect(dataOf(run.events(), 'MESSAGE_DISCARDED').length).toBe(2);
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => [d.code, d.message])).toEqual([
      ['MODEL_TIMEOUT', 'The model took too long to answer.'],
    ]);
    expect(
      run.handle
        .snapshot()
        .messages.filter((m) => m.role === 'assistant')
        .map((m) => m.status),
    ).toEqual(['error']);
  });

  it('a round past its deadline ends with MODEL_TIMEOUT (never retried)', async () => {
    const run = startEngine('/slow', { limits: { roundTimeoutMs: 5000 } });
    await run.done;
    expect(dataOf(run.events(), 'MESSAGE_DISCARDED')).toEqual([]);
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => [d.code, d.message])).toEqual([
      ['MODEL_TIMEOUT', 'A step of the agent took longer than 5 s and was stopped.'],
    ]);
  });

  it('a tool running past the round deadline gets an unknown result, then MODEL_TIMEOUT', async () => {
    const stuck: ToolDefinition = {
      name: 'stuck',
      description: 'never ends',
      parameters: { type: 'object' },
      policy: 'allow',
      run: () => new Promise(() => undefined),
    };
    const model = createListModel([
      [
        { type: 'tool_call', id: 'c1', name: 'stuck', arguments: '{}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      answer,
    ]);
    const run = startEngine('go', { model, tools: [stuck], limits: { roundTimeoutMs: 3000, toolStopGraceMs: 500 } });
    await run.until((s) => s.toolCalls.length === 1);
    await new Promise((resolve) => setImmediate(resolve));
    run.clock.advance(3000);
    await new Promise((resolve) => setImmediate(resolve));
    run.clock.advance(500);
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(['unknown']);
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => d.code)).toEqual(['MODEL_TIMEOUT']);
  });

  it('a run past its maximum duration ends with RUN_TIMEOUT (status expired)', async () => {
    const run = startEngine('/slow', { limits: { runMaxDurationMs: 3000 } });
    await run.done;
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => [d.code, d.message])).toEqual([
      ['RUN_TIMEOUT', 'The run took longer than its limit of 3 s and was stopped.'],
    ]);
    expect(run.handle.snapshot().status).toBe('expired');
  });

  it('a context over the token budget ends with TOKEN_BUDGET_EXCEEDED, counting tool results', async () => {
    const big: ToolDefinition = {
      name: 'big',
      description: 'big',
      parameters: { type: 'object' },
      policy: 'allow',
      run: async () => 'y'.repeat(4000),
    };
    const model = createListModel([
      [
        { type: 'tool_call', id: 'c1', name: 'big', arguments: '{}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      answer,
    ]);
    const run = startEngine('go', { model, tools: [big], limits: { tokenBudget: 1000 } });
    await run.done;
    expect(model.requests.length).toBe(1);
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => d.code)).toEqual(['TOKEN_BUDGET_EXCEEDED']);
    expect(dataOf(run.events(), 'STEP_STARTED').length).toBe(2);
  });
});
