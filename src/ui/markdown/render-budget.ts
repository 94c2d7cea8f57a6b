/** Options for `createRenderBudget`. */
export interface RenderBudgetOptions {
  /** Milliseconds on a monotonic clock; `performance.now` unless a test injects another. */
  now?: () => number;
}

/**
 * Main-thread time a streamed message may spend on rendering: each appended character earns this
 * many ms (0.04 ms is 0.8 s per 20,000 characters, leaving the rest of the 2 s budget to the
 * browser's own work and the updates that render nothing).
 */
export const BUDGET_MS_PER_CHARACTER = 0.04;
/** Credit at the start (and the most that can be saved up), so short messages render at once. */
export const BUDGET_MAX_CREDIT_MS = 50;
/** Lengths below this count as this in the cost model, so a short render's noise is not blown up. */
const MODEL_FLOOR_LENGTH = 256;

/** The time budget of one streamed message and a cost model of its open tail. */
export interface RenderBudget {
  /** Credits the budget for `characters` newly appended characters. */
  earn(characters: number): void;
  /**
   * Predicts the ms a render of `length` characters of the current block takes, from the last
   * measured render scaled by the square of the length ratio (pathological Markdown lexes in
   * quadratic time; lengths under 256 count as 256); 0 before any measurement.
   */
  predict(length: number): number;
  /** Whether the credit covers a render predicted at `cost` ms. */
  canAfford(cost: number): boolean;
  /** Runs `render`, charges its measured time and, when `length` is given, models the block by it. */
  spend(render: () => void, length?: number): void;
  /** Forgets the cost model (a new block starts); the credit stays. */
  forgetBlock(): void;
}

/** Creates the budget of one streamed message: full credit, no cost model yet. */
export function createRenderBudget(options?: RenderBudgetOptions): RenderBudget {
  const now = options?.now ?? (() => performance.now());
  let credit = BUDGET_MAX_CREDIT_MS;
  let modelCost = 0;
  let modelLength = 0;
  return {
    earn(characters) {
      credit = Math.min(BUDGET_MAX_CREDIT_MS, credit + characters * BUDGET_MS_PER_CHARACTER);
    },
    predict(length) {
      if (modelLength === 0) return 0;
      return modelCost * (Math.max(length, MODEL_FLOOR_LENGTH) / Math.max(modelLength, MODEL_FLOOR_LENGTH)) ** 2;
    },
    canAfford(cost) {
      return cost <= credit;
    },
    spend(render, length) {
      const started = now();
      render();
      const cost = Math.max(0, now() - started);
      credit -= cost;
      if (length !== undefined && length > 0) {
        modelCost = cost;
        modelLength = length;
      }
    },
    forgetBlock() {
      modelCost = 0;
      modelLength = 0;
    },
  };
}
