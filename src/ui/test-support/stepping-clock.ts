/** A test clock for the render budget: every read moves it `step` ms, so each timed render costs exactly `step`. */
export interface SteppingClock {
  now: () => number;
  step: number;
  time: number;
}

/** Creates a stepping clock at time 0 with step 0 (renders cost nothing until a test sets `step`). */
export function createSteppingClock(): SteppingClock {
  const clock: SteppingClock = {
    step: 0,
    time: 0,
    now: () => {
      clock.time += clock.step;
      return clock.time;
    },
  };
  return clock;
}
