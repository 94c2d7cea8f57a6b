import type { AgentClient } from '../../src/core/client/agent-client-types.ts';
import type { ClientState } from '../../src/core/client/client-state.ts';

/** Resolves with the first state of `client` that satisfies `predicate`; rejects after `timeoutMs` (10 s) with the last state. */
export function waitForState(
  client: Pick<AgentClient, 'getState' | 'subscribe'>,
  predicate: (state: ClientState) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<ClientState> {
  return new Promise((resolve, reject) => {
    if (predicate(client.getState())) {
      resolve(client.getState());
      return;
    }
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`gave up waiting for ${what}; last state: ${JSON.stringify(client.getState())}`));
    }, timeoutMs);
    const unsubscribe = client.subscribe((state) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(state);
    });
  });
}

/** True once the followed run has ended and no stream is open. */
export function isSettledState(state: ClientState): boolean {
  return (
    state.run !== null &&
    ['completed', 'failed', 'cancelled', 'expired'].includes(state.run.status) &&
    state.connection === 'idle'
  );
}
