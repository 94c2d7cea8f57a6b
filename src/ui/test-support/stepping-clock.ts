/**
 * A test clock for the render budget: every read of `now` moves it `step` ms, so each timed render
 * costs exactly `step`; `idle` reads the time between renders, which moves only when a test sets
 * `idleTime` (so render costs alone earn no idle credit).
 */
export interface SteppingClock {
  now: () => number;
  step: number;
  time: number;
  idle: () => number;
  idleTime: number;
}

/** Creates a stepping clock at time 0 with step 0 (renders cost nothing until a test sets `step`) and no idle time. */
export function createSteppingClock(): SteppingClock {
  const clock: SteppingClock = {
    step: 0,
    time: 0,
    now: () => {
      clock.time += clock.step;
      return clock.time;
    },
    idleTime: 0,
    idle: () => clock.idleTime,
  };
  return clock;
}
