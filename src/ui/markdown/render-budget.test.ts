import { describe, expect, test } from 'vitest';
import { createSteppingClock } from '../test-support/stepping-clock.ts';
import { BUDGET_MAX_CREDIT_MS, BUDGET_MS_PER_CHARACTER, createRenderBudget } from './render-budget.ts';

describe('createRenderBudget', () => {
  test('charges each render its measured time and earns credit per appended character', () => {
    const clock = createSteppingClock();
    const budget = createRenderBudget({ now: clock.now });
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS)).toBe(true);
    clock.step = 30;
    budget.spend(() => undefined);
    budget.spend(() => undefined);
    expect(budget.canAfford(0)).toBe(false);
    budget.earn(10 / BUDGET_MS_PER_CHARACTER);
    expect(budget.canAfford(0)).toBe(true);
    expect(budget.canAfford(1)).toBe(false);
  });

  test('never saves up more than the maximum credit', () => {
    const budget = createRenderBudget({ now: () => 0 });
    budget.earn(1_000_000);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS)).toBe(true);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS + 0.01)).toBe(false);
  });

  test('predicts a longer render quadratically from the last measured one, short lengths counting as 256', () => {
    const clock = createSteppingClock();
    const budget = createRenderBudget({ now: clock.now });
    expect(budget.predict(10_000)).toBe(0);
    clock.step = 4;
    budget.spend(() => undefined, 1_000);
    expect(budget.predict(1_000)).toBe(4);
    expect(budget.predict(2_000)).toBe(16);
    expect(budget.predict(100)).toBe(4 * (256 / 1_000) ** 2);
    budget.spend(() => undefined, 10);
    expect(budget.predict(512)).toBe(16);
    budget.forgetBlock();
    expect(budget.predict(2_000)).toBe(0);
  });
});
