import { describe, expect, it } from 'vitest';
import type { EventEnvelope, EventType } from '../../core/protocol.ts';
import { dataOf, startEngine } from '../agent-loop/test-support/run-engine-harness.ts';
import type { ModelChunk, ModelMessage, ModelRequest } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';
import { createScriptedModel } from './scripted-model.ts';
import { SHAPES } from './scripted-shapes.ts';

const DEMO_TOOL_NAMES = ['orders.lookup', 'drafts.list', 'drafts.delete', 'report.generate'];

/** The chunks one call of the scripted model yields for `messages`, with no pacing (also into `into`, kept when it throws). */
async function chunksOf(
  messages: ModelMessage[],
  options: { attempt?: number; tools?: readonly string[]; into?: ModelChunk[] } = {},
): Promise<ModelChunk[]> {
  const model = createScriptedModel({ sleep: () => Promise.resolve() });
  const request: ModelRequest = {
    messages,
    tools: (options.tools ?? DEMO_TOOL_NAMES).map((name) => ({ name, description: name, parameters: {} })),
    attempt: options.attempt ?? 1,
  };
  const chunks = options.into ?? [];
  for await (const chunk of model.stream(request, new AbortController().signal)) chunks.push(chunk);
  return chunks;
}

const user = (content: string): ModelMessage => ({ role: 'user', content });

/** The chunk types, with each run of the same delta type folded into one. */
const kinds = (chunks: readonly ModelChunk[]): string[] =>
  chunks.map((chunk) => chunk.type).filter((type, index, all) => !(type === all[index - 1] && type !== 'tool_call'));

const indexOf = (events: readonly EventEnvelope[], type: EventType): number =>
  events.findIndex((event) => event.type === type);

const answerOf = (run: ReturnType<typeof startEngine>): string => run.handle.snapshot().messages.at(-1)?.content ?? '';

/** `calls` calls start before any text of the run (if it has any), and none hangs under a message. */
function expectCallsBeforeAnyText(events: readonly EventEnvelope[], calls: number): void {
  const starts = dataOf(events, 'TOOL_CALL_START');
  expect(starts).toHaveLength(calls);
  for (const start of starts) expect(start).not.toHaveProperty('parentMessageId');
  const firstText = indexOf(events, 'TEXT_MESSAGE_START');
  const lastStart = events.findLastIndex((event) => event.type === 'TOOL_CALL_START');
  if (firstText !== -1) expect(firstText).toBeGreaterThan(lastStart);
}

describe('the scripted model /shape: the chunks each shape streams', () => {
  it('silent-call: a call with no text before it', async () => {
    const chunks = await chunksOf([user('/shape silent-call')]);
    expect(kinds(chunks)).toEqual(['tool_call', 'usage', 'finish']);
    expect(chunks[0]).toEqual({
      type: 'tool_call',
      id: 'call_1_1',
      name: 'orders.lookup',
      arguments: '{"orderId":"A-1001"}',
    });
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('parallel: two calls in one response', async () => {
    const chunks = await chunksOf([user('/shape parallel')]);
    expect(kinds(chunks)).toEqual(['tool_call', 'tool_call', 'usage', 'finish']);
    expect(chunks.flatMap((chunk) => (chunk.type === 'tool_call' ? [chunk.arguments] : []))).toEqual([
      '{"orderId":"A-1001"}',
      '{"orderId":"A-1002"}',
    ]);
  });

  it('silent-rounds: a second silent call after the first result, then text', async () => {
    const first: ModelMessage[] = [
      user('/shape silent-rounds'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1_1', name: 'orders.lookup', arguments: '{"orderId":"A-1001"}' }],
      },
      { role: 'tool', toolCallId: 'call_1_1', content: '{"orderId":"A-1001","status":"shipped"}', status: 'completed' },
    ];
    expect(kinds(await chunksOf(first))).toEqual(['tool_call', 'usage', 'finish']);
    const second: ModelMessage[] = [
      ...first,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_2_1', name: 'orders.lookup', arguments: '{"orderId":"A-1002"}' }],
      },
      {
        role: 'tool',
        toolCallId: 'call_2_1',
        content: '{"orderId":"A-1002","status":"delivered"}',
        status: 'completed',
      },
    ];
    expect(kinds(await chunksOf(second))).toEqual(['text', 'usage', 'finish']);
  });

  it('approval-first: a call to the asking tool with no text before it', async () => {
    const chunks = await chunksOf([user('/shape approval-first')]);
    expect(kinds(chunks)).toEqual(['tool_call', 'usage', 'finish']);
    expect(chunks[0]).toMatchObject({ name: 'drafts.delete', arguments: '{"draftId":"draft-42"}' });
  });

  it('reasoning-call: reasoning, then a call, and no text', async () => {
    expect(kinds(await chunksOf([user('/shape reasoning-call')]))).toEqual([
      'reasoning',
      'tool_call',
      'usage',
      'finish',
    ]);
  });

  it('tool-error: a call whose arguments the tool refuses', async () => {
    const chunks = await chunksOf([user('/shape tool-error')]);
    expect(kinds(chunks)).toEqual(['tool_call', 'usage', 'finish']);
    expect(chunks[0]).toMatchObject({ name: 'orders.lookup', arguments: '{"orderId":"order one"}' });
  });

  it('cut-args: fragments cut mid-arguments on attempt 1, the whole call in fragments on the retry', async () => {
    const first: ModelChunk[] = [];
    const failure: unknown = await chunksOf([user('/shape cut-args')], { attempt: 1, into: first }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ModelError);
    expect(failure).toMatchObject({ retryable: true });
    expect(first).toEqual([
      { type: 'tool_call_delta', index: 0, id: 'call_1_1', name: 'orders.lookup' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"orderId"' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: ':"A-10' },
    ]);

    const retry = await chunksOf([user('/shape cut-args')], { attempt: 2 });
    expect(kinds(retry)).toEqual(['tool_call_delta', 'usage', 'finish']);
    const args = retry.map((chunk) => (chunk.type === 'tool_call_delta' ? (chunk.argumentsDelta ?? '') : '')).join('');
    expect(args).toBe('{"orderId":"A-1001"}');
  });

  it('cancel-tool: a call to the long tool with no text before it', async () => {
    const chunks = await chunksOf([user('/shape cancel-tool')]);
    expect(kinds(chunks)).toEqual(['tool_call', 'usage', 'finish']);
    expect(chunks[0]).toMatchObject({ name: 'report.generate', arguments: '{"topic":"Press Stop","sections":10}' });
  });

  it('/shape alone lists every shape, and an unknown name says so', async () => {
    const text = (chunks: ModelChunk[]): string =>
      chunks.map((chunk) => (chunk.type === 'text' ? chunk.delta : '')).join('');
    const listed = text(await chunksOf([user('/shape')]));
    for (const name of Object.keys(SHAPES)) expect(listed).toContain(`\`/shape ${name}\``);
    expect(text(await chunksOf([user('/shape zigzag')]))).toContain('There is no shape `zigzag`.');
  });

  it('says so instead of calling a tool the run does not offer', async () => {
    const chunks = await chunksOf([user('/shape cancel-tool')], { tools: ['orders.lookup'] });
    expect(kinds(chunks)).toEqual(['text', 'usage', 'finish']);
    expect(chunks.map((chunk) => (chunk.type === 'text' ? chunk.delta : '')).join('')).toBe(
      '`/shape cancel-tool` needs the tool `report.generate`, which this server does not offer, so nothing was called. Try `/call <tool> <json-args>` with one of: `orders.lookup`.',
    );
  });
});

describe('the scripted model /shape through the agent loop', () => {
  it('silent-call: the call comes before any text and has no parent message', async () => {
    const run = startEngine('/shape silent-call');
    await run.done;
    expectCallsBeforeAnyText(run.events(), 1);
    expect(dataOf(run.events(), 'TEXT_MESSAGE_START')).toHaveLength(1);
    expect(answerOf(run)).toMatch(/^Order A-1001 is \w+ \(DHL\)\.$/);
  });

  it('parallel: both calls run in one round before the answer', async () => {
    const run = startEngine('/shape parallel');
    await run.done;
    expectCallsBeforeAnyText(run.events(), 2);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((result) => result.status)).toEqual(['completed', 'completed']);
    expect(answerOf(run)).toMatch(/^Both orders at once: A-1001 is \w+ \(DHL\); A-1002 is \w+ \(DHL\)\.$/);
  });

  it('silent-rounds: two rounds of calls, then the only text message', async () => {
    const run = startEngine('/shape silent-rounds');
    await run.done;
    expectCallsBeforeAnyText(run.events(), 2);
    expect(dataOf(run.events(), 'TEXT_MESSAGE_START')).toHaveLength(1);
    expect(dataOf(run.events(), 'TOOL_CALL_END').map((end) => end.args)).toEqual([
      { orderId: 'A-1001' },
      { orderId: 'A-1002' },
    ]);
  });

  it('approval-first: the run waits for approval before any text, then answers', async () => {
    const run = startEngine('/shape approval-first');
    await run.until((snapshot) => snapshot.status === 'awaiting_input');
    expect(indexOf(run.events(), 'TEXT_MESSAGE_START')).toBe(-1);
    expectCallsBeforeAnyText(run.events(), 1);
    await run.decide('int_1', 'allow');
    await run.done;
    expect(answerOf(run)).toBe('Done: **draft-42** was deleted.');
  });

  it('reasoning-call: reasoning, then the call, then the answer', async () => {
    const run = startEngine('/shape reasoning-call');
    await run.done;
    expectCallsBeforeAnyText(run.events(), 1);
    expect(indexOf(run.events(), 'REASONING_START')).toBeLessThan(indexOf(run.events(), 'TOOL_CALL_START'));
  });

  it('tool-error: the call fails on its arguments, then the model answers', async () => {
    const run = startEngine('/shape tool-error');
    await run.done;
    expectCallsBeforeAnyText(run.events(), 1);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((result) => result.status)).toEqual(['failed']);
    expect(answerOf(run)).toContain('Order ids look like `A-1001`');
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('cut-args: the cut attempt logs no call; the retry makes it whole', async () => {
    const run = startEngine('/shape cut-args');
    await run.done;
    expect(dataOf(run.events(), 'NOTICE').map((notice) => [notice.code, notice.attempt])).toEqual([
      ['MODEL_RETRYING', 2],
    ]);
    expectCallsBeforeAnyText(run.events(), 1);
    expect(dataOf(run.events(), 'TOOL_CALL_END').map((end) => end.args)).toEqual([{ orderId: 'A-1001' }]);
    expect(indexOf(run.events(), 'NOTICE')).toBeLessThan(indexOf(run.events(), 'TOOL_CALL_START'));
    expect(answerOf(run)).toMatch(/^Recovered from the cut: order A-1001 is \w+ \(DHL\)\.$/);
  });

  it('cancel-tool: Stop while the tool reports progress ends the call and the run cancelled', async () => {
    const run = startEngine('/shape cancel-tool');
    await run.until((snapshot) => snapshot.toolCalls[0]?.progress !== undefined);
    await run.cancel();
    await run.done;
    expectCallsBeforeAnyText(run.events(), 1);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((result) => result.status)).toEqual(['cancelled']);
    expect(dataOf(run.events(), 'RUN_FINISHED').map((finished) => finished.outcome)).toEqual([{ type: 'cancelled' }]);
  });
});
