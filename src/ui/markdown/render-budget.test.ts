import { describe, expect, test } from 'vitest';
import { createSteppingClock } from '../test-support/stepping-clock.ts';
import {
  BUDGET_MAX_CHARGE_MS,
  BUDGET_MAX_CREDIT_MS,
  BUDGET_IDLE_GAP_FLOOR_MS,
  BUDGET_MS_PER_CHARACTER,
  BUDGET_SHARE_OF_IDLE_TIME,
  createRenderBudget,
} from './render-budget.ts';

describe('createRenderBudget', () => {
  test('charges each render its measured time and earns credit per appended character', () => {
    const clock = createSteppingClock();
    const budget = createRenderBudget({ now: clock.now, idleNow: clock.idle });
    clock.step = 10;
    budget.spend(() => undefined);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS - 10)).toBe(true);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS - 9)).toBe(false);
    for (let index = 0; index < 4; index += 1) budget.spend(() => undefined);
    expect(budget.canAfford(0)).toBe(true);
    budget.spend(() => undefined);
    expect(budget.canAfford(0)).toBe(false);
    budget.earn(10 / BUDGET_MS_PER_CHARACTER);
    expect(budget.canAfford(0)).toBe(true);
    expect(budget.canAfford(1)).toBe(false);
  });

  test('charges a slow render at most 16 ms and never saves up more than the maximum credit', () => {
    const clock = createSteppingClock();
    const budget = createRenderBudget({ now: clock.now, idleNow: clock.idle });
    clock.step = 500;
    budget.spend(() => undefined);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS - BUDGET_MAX_CHARGE_MS)).toBe(true);
    budget.earn(1_000_000);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS)).toBe(true);
    // A render predicted over the whole credit is affordable once the credit is full.
    expect(budget.canAfford(10_000)).toBe(true);
    clock.step = 1;
    budget.spend(() => undefined);
    expect(budget.canAfford(10_000)).toBe(false);
  });

  test('predicts quadratically from the smaller of the last two renders, short lengths counting as 256', () => {
    const clock = createSteppingClock();
    const budget = createRenderBudget({ now: clock.now, idleNow: clock.idle });
    expect(budget.predict(10_000)).toBe(0);
    clock.step = 4;
    budget.spend(() => undefined, 1_000);
    expect(budget.predict(1_000)).toBe(4);
    expect(budget.predict(2_000)).toBe(16);
    expect(budget.predict(100)).toBe(4 * (256 / 1_000) ** 2);
    clock.step = 100;
    budget.spend(() => undefined, 1_000);
    expect(budget.predict(2_000)).toBe(16);
    budget.spend(() => undefined, 1_000);
    expect(budget.predict(1_000)).toBe(100);
    budget.forgetBlock();
    expect(budget.predict(2_000)).toBe(0);
  });

  test('earns a share of the time between renders, never of a render itself, and saves up no more than the maximum', () => {
    const clock = createSteppingClock();
    const budget = createRenderBudget({ now: clock.now, idleNow: clock.idle });
    clock.step = BUDGET_MAX_CREDIT_MS;
    for (let index = 0; index < 3; index += 1) budget.spend(() => undefined);
    // Three renders of 50 ms are charged 16 ms each: the credit is 2 ms.
    expect(budget.canAfford(2)).toBe(true);
    expect(budget.canAfford(2.1)).toBe(false);
    // A gap as short as a burst's leaves earns nothing.
    clock.idleTime += BUDGET_IDLE_GAP_FLOOR_MS;
    budget.earn(0);
    expect(budget.canAfford(2.1)).toBe(false);
    clock.idleTime += 40;
    budget.earn(0);
    const earned = (40 - BUDGET_IDLE_GAP_FLOOR_MS) * BUDGET_SHARE_OF_IDLE_TIME;
    expect(budget.canAfford(2 + earned)).toBe(true);
    expect(budget.canAfford(2.1 + earned)).toBe(false);
    // The same idle time is not counted twice.
    budget.earn(0);
    expect(budget.canAfford(2.1 + earned)).toBe(false);
    clock.idleTime += 60_000;
    budget.earn(0);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS)).toBe(true);
    clock.step = 1;
    budget.spend(() => undefined);
    expect(budget.canAfford(BUDGET_MAX_CREDIT_MS)).toBe(false);
  });
});
