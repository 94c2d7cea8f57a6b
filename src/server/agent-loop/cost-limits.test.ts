import { describe, expect, it } from 'vitest';
import { createRunEngine } from './create-run-engine.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, startEngine } from './test-support/run-engine-harness.ts';

// $1 per million input tokens, $2 per million output tokens.
const PRICES = { 'list-model': { inputPerMillionUsd: '1', outputPerMillionUsd: '2' } };

const toolRound = (inputTokens: number, outputTokens: number) => [
  { type: 'tool_call' as const, id: 'c1', name: 'orders.lookup', arguments: '{"orderId":"A-1"}' },
  { type: 'usage' as const, usage: { inputTokens, outputTokens } },
  { type: 'finish' as const, reason: 'tool_calls' as const },
];
const answer = (inputTokens: number, outputTokens: number) => [
  { type: 'text' as const, delta: 'Done.' },
  { type: 'usage' as const, usage: { inputTokens, outputTokens } },
  { type: 'finish' as const, reason: 'stop' as const },
];

describe('cost', () => {
  it("adds up the run's reported usage at the model's price, exactly, into RUN_FINISHED and the snapshot", async () => {
    const model = createListModel([toolRound(1_000, 50), answer(1_200, 30)]);
    const run = startEngine('Where is A-1?', { model, prices: PRICES });
    await run.done;
    // 2,200 input × $1/M + 80 output × $2/M = $0.00236.
    expect(dataOf(run.events(), 'RUN_FINISHED')[0]?.costUsd).toBe('0.002360000000');
    expect(run.handle.snapshot().costUsd).toBe('0.002360000000');
  });

  it('ends the run COST_LIMIT_EXCEEDED before a call that could pass maxCostUsd, with what was spent', async () => {
    const model = createListModel([toolRound(1_000, 50), answer(1_200, 30)]);
    // Spent after round 1: $0.0011. Round 2 could cost its estimated input plus 4,096 output tokens × $2/M > $0.008.
    const run = startEngine('Where is A-1?', {
      model,
      prices: PRICES,
      options: { limits: { maxCostUsd: '0.009' } },
    });
    await run.done;
    expect(model.requests).toHaveLength(1);
    expect(dataOf(run.events(), 'RUN_ERROR')).toEqual([
      expect.objectContaining({
        code: 'COST_LIMIT_EXCEEDED',
        message:
          "The next step could cost more than this run's limit of $0.009 (spent so far: $0.001100000000), so the run was stopped.",
        retryable: false,
        costUsd: '0.001100000000',
      }),
    ]);
  });

  it('lets the call go when it fits the limit', async () => {
    const model = createListModel([toolRound(1_000, 50), answer(1_200, 30)]);
    const run = startEngine('Where is A-1?', { model, prices: PRICES, options: { limits: { maxCostUsd: '0.05' } } });
    await run.done;
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('fails closed when the model has no price: no call is made under a cost limit', async () => {
    const model = createListModel([answer(10, 1)]);
    const run = startEngine('Hi', { model, options: { limits: { maxCostUsd: '1' } } });
    await run.done;
    expect(model.requests).toHaveLength(0);
    expect(dataOf(run.events(), 'RUN_ERROR').map((e) => e.code)).toEqual(['COST_LIMIT_EXCEEDED']);
    // Without a limit the same unpriced model answers, and no cost is claimed.
    const free = startEngine('Hi', { model: createListModel([answer(10, 1)]) });
    await free.done;
    expect(free.handle.snapshot()).toEqual(expect.objectContaining({ status: 'completed', costUsd: null }));
  });

  it('refuses a price that is not a decimal string when the engine is created', () => {
    expect(() =>
      createRunEngine({ prices: { m: { inputPerMillionUsd: '0.1', outputPerMillionUsd: '1e-3' } } }),
    ).toThrow('"1e-3" is not a decimal amount of at most 12 + 12 digits.');
  });
});
