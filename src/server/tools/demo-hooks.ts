import type { ToolHooks } from '../agent-loop/engine-options.ts';

/**
 * The demo's product checks (`npm start` with its own loop): the pre-use hook lets an order lookup
 * run and says why, so the tool card of `/tool` shows its evidence (docs/agent-loop.md, "Evidence").
 * Other calls it leaves to their policy.
 */
export function createDemoHooks(): ToolHooks {
  return {
    preToolUse: (call) =>
      call.name === 'orders.lookup'
        ? { policy: 'allow', reason: "An order lookup only reads the signed-in user's orders." }
        : undefined,
  };
}
