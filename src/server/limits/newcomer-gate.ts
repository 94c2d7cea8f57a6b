import type { Clock } from '../../core/clock.ts';

/** Options of {@link createNewcomerGate}. */
export interface NewcomerGateOptions {
  /** How long a newcomer's request waits at the gate, in ms. */
  waitMs: number;
  /** Newcomers waiting at once; past it one more is turned away at once. */
  maxWaiting: number;
  clock: Pick<Clock, 'setTimeout'>;
}

/**
 * Where a network client that holds nothing waits a moment before it takes a reserved slot, so
 * the slot goes to a client asking for one thing, not to one asking for many at once.
 */
export interface NewcomerGate {
  /**
   * Resolves after `waitMs` with true when `client` asked for nothing else meanwhile. Resolves
   * false at once when `client` already waits here (the waiting request then resolves false too)
   * or when `maxWaiting` clients wait.
   */
  pass(client: string): Promise<boolean>;
}

/**
 * Creates a {@link NewcomerGate}: max-min fairness for the newcomers' reserve under a flood. A
 * client sending several requests at once is asking for more than a share, so none of them
 * passes; a client sending one passes after `waitMs`. Memory is one entry per waiting client.
 */
export function createNewcomerGate(options: NewcomerGateOptions): NewcomerGate {
  const waiters = new Map<string, { isAskingMore: boolean }>();
  return {
    pass(client) {
      const waiter = waiters.get(client);
      if (waiter !== undefined) {
        waiter.isAskingMore = true;
        return Promise.resolve(false);
      }
      if (waiters.size >= options.maxWaiting) return Promise.resolve(false);
      const entry = { isAskingMore: false };
      waiters.set(client, entry);
      return new Promise((resolve) => {
        options.clock.setTimeout(() => {
          waiters.delete(client);
          resolve(!entry.isAskingMore);
        }, options.waitMs);
      });
    },
  };
}
