import type { Clock } from '../../core/clock.ts';

/** A countdown that can pause (while the user decides on an approval) and resume. */
export interface Deadline {
  pause(): void;
  resume(): void;
  clear(): void;
}

/** Starts a countdown of `ms` on `clock` that calls `onExpire` once when it runs out. */
export function createDeadline(options: { clock: Clock; ms: number; onExpire: () => void }): Deadline {
  const { clock, onExpire } = options;
  let remaining = options.ms;
  let startedAt = 0;
  let timer: unknown = undefined;
  const start = (): void => {
    startedAt = clock.now();
    timer = clock.setTimeout(() => {
      timer = undefined;
      remaining = 0;
      onExpire();
    }, remaining);
  };
  const stop = (): void => {
    if (timer === undefined) return;
    clock.clearTimeout(timer);
    timer = undefined;
    remaining = Math.max(0, remaining - (clock.now() - startedAt));
  };
  start();
  return {
    pause: stop,
    resume: () => {
      if (timer === undefined && remaining > 0) start();
    },
    clear: () => {
      stop();
      remaining = 0;
    },
  };
}
