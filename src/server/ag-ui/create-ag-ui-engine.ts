import { createRunEngine } from '../agent-loop/create-run-engine.ts';
import type { RunEngineOptions } from '../agent-loop/engine-options.ts';
import { createUlidIds } from '../ids/create-ulid-ids.ts';
import type { RunEngine } from '../runs/run-handle.ts';
import { createSystemClock } from '../../core/clock.ts';
import { createAgUiModel } from './ag-ui-model.ts';

/** Options of {@link createAgUiEngine}: where the agent is, plus any option of the agent loop but its model. */
export interface AgUiEngineOptions extends Omit<RunEngineOptions, 'model'> {
  /** The AG-UI agent's endpoint (`POST` a `RunAgentInput`, read SSE). */
  url: string;
  /** Sent with every request to the agent (its own credentials); never anything from the browser. */
  headers?: Record<string, string>;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Events the agent sends that pass into our log (state, custom) are kept up to this size. Default 65 536. */
  maxEventBytes?: number;
}

/**
 * Creates a `RunEngine` whose model is a remote AG-UI agent (docs/ag-ui.md, "Consumer"): our agent
 * loop calls the agent once per round with the session's history, and maps what it streams into
 * our sequenced, resumable log. A tool call the agent leaves for its client is one of the loop's
 * tool calls: governed like any (`tools`, default none, with their policies, hooks,
 * `canExecuteTool` and approvals bound to `argsDigest`), and its result goes back to the agent in
 * the next round. Every other option is the loop's (`limits`, `approvals`, `hooks`, `clock`, …).
 */
export function createAgUiEngine(options: AgUiEngineOptions): RunEngine {
  const { url, headers, fetch: doFetch, maxEventBytes, ...loop } = options;
  const ids = loop.ids ?? createUlidIds(loop.clock ?? createSystemClock());
  const model = createAgUiModel({
    url,
    ids,
    ...(headers === undefined ? {} : { headers }),
    ...(doFetch === undefined ? {} : { fetch: doFetch }),
    ...(maxEventBytes === undefined ? {} : { maxEventBytes }),
    ...(loop.limits?.maxResultChars === undefined ? {} : { maxResultChars: loop.limits.maxResultChars }),
  });
  return createRunEngine({ ...loop, ids, tools: loop.tools ?? [], model });
}
