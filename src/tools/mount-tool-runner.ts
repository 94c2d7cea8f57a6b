import type { AgentClientHandle, ToolReceiptStore, ToolRunner, ToolRunnerOptions } from '../core/index.ts';
import { attachToolRunner, createMemoryReceiptStore, FOLD_ONLY } from '../core/index.ts';
import { openIndexedDbReceiptStore } from './indexeddb-receipt-store.ts';

/** Options of {@link mountToolRunner}: the runner's, with the store named rather than given. */
export interface MountToolRunnerOptions extends Omit<ToolRunnerOptions, 'receipts'> {
  /**
   * Where receipts are kept: `memory` (the default: nothing is written, a reload forgets them)
   * or `indexeddb` (they survive a reload; one database per identity). A function makes a store
   * for each identity.
   */
  receipts?: 'memory' | 'indexeddb' | ((identityId: string) => ToolReceiptStore);
}

/** The runner of a mounted widget: one per identity, replaced when the identity changes. */
export interface MountedToolRunner {
  /** The runner of the current identity; null before the first bootstrap (and a moment after it), and after `stop()`. */
  runner(): ToolRunner | null;
  /** Revokes the current runner and starts no other (the widget's `destroy()`). */
  stop(): Promise<void>;
}

/**
 * Runs the browser tools of a client (`attachTools` does it for a mounted widget): attaches a runner
 * with its own store for the client's identity, and when the identity changes (a logout, another
 * user) the old runner revokes itself and the new identity gets a new runner and a new store.
 */
export function mountToolRunner(client: AgentClientHandle, options: MountToolRunnerOptions): MountedToolRunner {
  const { receipts = 'memory', ...runnerOptions } = options;
  // At once, not when the first identity's runner attaches: no event of a browser call goes unfolded.
  client.extend(FOLD_ONLY);
  let current: ToolRunner | null = null;
  let identity: string | null = null;
  let isStopped = false;
  const storeFor = (identityId: string): ToolReceiptStore =>
    typeof receipts === 'function'
      ? receipts(identityId)
      : receipts === 'indexeddb'
        ? openIndexedDbReceiptStore({ name: `agent-chat-tools:${identityId}` })
        : createMemoryReceiptStore();
  let turnover: Promise<void> = Promise.resolve();
  const follow = (): void => {
    const next = client.getState().bootstrap?.identity.identityId ?? null;
    if (isStopped || next === identity) return;
    identity = next;
    const previous = current;
    current = null;
    // The identity change reset the client, which unplugged the fold with the rest of its state.
    client.extend(FOLD_ONLY);
    // The previous runner is gone from the client before the new identity's runner starts afresh.
    turnover = turnover.then(async () => {
      await previous?.revoke();
      if (isStopped || next === null || identity !== next) return;
      current = attachToolRunner(client, { ...runnerOptions, receipts: storeFor(next) });
    });
  };
  const unsubscribe = client.subscribe(follow);
  follow();
  return {
    runner: () => current,
    async stop() {
      isStopped = true;
      unsubscribe();
      await turnover;
      const runner = current;
      current = null;
      await runner?.revoke();
    },
  };
}
