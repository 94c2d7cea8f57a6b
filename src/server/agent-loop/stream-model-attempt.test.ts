import { describe, expect, it } from 'vitest';
import { ModelError } from '../models/model-adapter.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, startEngine } from './test-support/run-engine-harness.ts';

const answer = [
  { type: 'text' as const, delta: 'Done.' },
  { type: 'finish' as const, reason: 'stop' as const },
];

describe('streamModelAttempt: what real providers send', () => {
  it('keeps the first tool call id when later fragments repeat an empty one', async () => {
    const model = createListModel([
      [
        { type: 'tool_call_delta', index: 0, id: 'call_qwen_1', name: 'orders.lookup', argumentsDelta: '{"orderId":' },
        { type: 'tool_call_delta', index: 0, id: '', argumentsDelta: '"A-1"}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      answer,
    ]);
    const run = startEngine('Where is A-1?', { model, tools: createDemoTools() });
    await run.done;
    const assistant = model.requests[1]?.messages.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' ? assistant.toolCalls : undefined).toEqual([
      { id: 'call_qwen_1', name: 'orders.lookup', arguments: '{"orderId":"A-1"}' },
    ]);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_qwen_1' });
  });

  it('counts a running usage total once per attempt, and every attempt of the run', async () => {
    const usage = (inputTokens: number, outputTokens: number) => ({
      type: 'usage' as const,
      usage: { inputTokens, outputTokens },
    });
    const model = createListModel([
      [
        usage(11, 1),
        { type: 'text', delta: 'Half' },
        usage(11, 3),
        { type: 'throw', error: new ModelError('busy', { retryable: true }) },
      ],
      [usage(11, 1), { type: 'text', delta: 'Whole.' }, usage(11, 7), usage(11, 9), { type: 'finish', reason: 'stop' }],
    ]);
    const run = startEngine('Hi', { model });
    await run.done;
    expect(dataOf(run.events(), 'RUN_FINISHED').at(0)?.usage).toEqual([
      { modelId: 'list-model', inputTokens: 22, outputTokens: 12 },
    ]);
  });

  it('gives an answer cut at the length limit before any text a message, so the cut can be shown', async () => {
    const model = createListModel([
      [
        { type: 'reasoning', delta: 'We need' },
        { type: 'finish', reason: 'length' },
      ],
    ]);
    const run = startEngine('Count the r in strawberry', { model });
    await run.done;
    expect(run.handle.snapshot().messages.filter((message) => message.role === 'assistant')).toEqual([
      expect.objectContaining({ content: '', status: 'complete', finishReason: 'length' }),
    ]);
  });
});
