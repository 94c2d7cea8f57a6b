/** Options for `createRenderBudget`. */
export interface RenderBudgetOptions {
  /** Times renders: milliseconds on a monotonic clock; `performance.now` unless a test injects another. */
  now?: () => number;
  /**
   * Reads the time that passes between renders, which earns idle credit; defaults to `now`. A test
   * of render costs alone passes a clock that stands still.
   */
  idleNow?: () => number;
}

/**
 * Main-thread time a streamed message may spend on rendering: each appended character earns this
 * many ms (0.04 ms is 0.8 s per 20,000 characters, leaving the rest of the 2 s budget to the
 * browser's own work and the updates that render nothing).
 */
export const BUDGET_MS_PER_CHARACTER = 0.04;
/**
 * Share of the time between renders that renders may use as well: a stream that arrives slowly
 * (20 tokens a second leave 50 ms between tokens) renders every token in the frame it arrives in,
 * while the main thread stays at least three quarters free. A burst leaves no time between
 * renders, so this adds nothing to what the characters earn there.
 */
export const BUDGET_SHARE_OF_IDLE_TIME = 0.25;
/**
 * A gap between renders earns idle credit only past this many ms: shorter gaps are the caller's
 * own work between back-to-back updates of a burst, not time the main thread was free.
 */
export const BUDGET_IDLE_GAP_FLOOR_MS = 4;
/** Credit at the start (and the most that can be saved up), so short messages render at once. */
export const BUDGET_MAX_CREDIT_MS = 50;
/**
 * A single render is charged at most this: a slower one is taken for noise (a garbage collection,
 * a cold start) so it cannot hold the message back for thousands of characters, while a block
 * that really renders this slowly goes over budget within two renders (the model keeps the
 * smaller of its last two measurements).
 */
export const BUDGET_MAX_CHARGE_MS = 16;
/** Lengths below this count as this in the cost model, so a short render's noise is not blown up. */
const MODEL_FLOOR_LENGTH = 256;

/** The time budget of one streamed message and a cost model of its open tail. */
export interface RenderBudget {
  /**
   * Credits the budget for `characters` newly appended characters and for the time since the last
   * render ended (or since the last `earn`) past `BUDGET_IDLE_GAP_FLOOR_MS`, at
   * `BUDGET_SHARE_OF_IDLE_TIME`.
   */
  earn(characters: number): void;
  /**
   * Predicts the ms a render of `length` characters of the current block takes: the smaller of
   * its last two measured renders, each scaled by the square of the length ratio (pathological
   * Markdown lexes in quadratic time; lengths under 256 count as 256); 0 before any measurement.
   */
  predict(length: number): number;
  /** Whether the credit covers a render predicted at `cost` ms (at most the full credit, so one is always possible). */
  canAfford(cost: number): boolean;
  /** Runs `render`, charges its measured time (at most `BUDGET_MAX_CHARGE_MS`) and, given `length`, models the block by it. */
  spend(render: () => void, length?: number): void;
  /** Forgets the cost model (a new block starts); the credit stays. */
  forgetBlock(): void;
}

/** One measured render: its cost in ms and the length it rendered. */
interface Measurement {
  cost: number;
  length: number;
}

/** Creates the budget of one streamed message: full credit, no cost model yet. */
export function createRenderBudget(options?: RenderBudgetOptions): RenderBudget {
  const now = options?.now ?? (() => performance.now());
  const idleNow = options?.idleNow ?? now;
  let credit = BUDGET_MAX_CREDIT_MS;
  /** When idle time last counted: the end of the last render or the last `earn`. */
  let idleSince = idleNow();
  let measurements: Measurement[] = [];
  const scale = (measurement: Measurement, length: number): number =>
    measurement.cost * (Math.max(length, MODEL_FLOOR_LENGTH) / Math.max(measurement.length, MODEL_FLOOR_LENGTH)) ** 2;
  return {
    earn(characters) {
      const at = idleNow();
      const idleCredit = Math.max(0, at - idleSince - BUDGET_IDLE_GAP_FLOOR_MS) * BUDGET_SHARE_OF_IDLE_TIME;
      idleSince = at;
      credit = Math.min(BUDGET_MAX_CREDIT_MS, credit + characters * BUDGET_MS_PER_CHARACTER + idleCredit);
    },
    predict(length) {
      return measurements.length === 0 ? 0 : Math.min(...measurements.map((measurement) => scale(measurement, length)));
    },
    canAfford(cost) {
      return Math.min(cost, BUDGET_MAX_CREDIT_MS) <= credit;
    },
    spend(render, length) {
      const started = now();
      render();
      const cost = Math.max(0, now() - started);
      credit -= Math.min(cost, BUDGET_MAX_CHARGE_MS);
      idleSince = idleNow();
      if (length !== undefined && length > 0) measurements = [...measurements.slice(-1), { cost, length }];
    },
    forgetBlock() {
      measurements = [];
    },
  };
}
