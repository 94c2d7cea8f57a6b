import type { TokenUsage } from '../../core/protocol.ts';

/** What an engine reports about one model attempt when it ends. */
export interface ModelCallObservation {
  /** The attempt streamed to its end. */
  succeeded(result: { finishReason: string; usage: TokenUsage | null }): void;
  /** The attempt failed with `error` (a `ModelError`, a stop, anything); `willRetry` when another attempt follows. */
  failed(error: unknown, willRetry: boolean): void;
}

/**
 * Hooks an engine may call so the handler's metrics, traces and logs see what the event log
 * does not show (docs/operations.md): set on `RunHandle.observer` by the handler.
 */
export interface RunObserver {
  /** Starts observing one model attempt of the current round; report its end exactly once. */
  modelCall(call: { modelId: string; attempt: number }): ModelCallObservation;
  /**
   * The names of the server tools this run may call (its agent version's tools, the MCP tools it
   * took, a built-in one like `widget_action`), told once when the run starts or resumes. Metrics
   * label a tool call by its tool's name only when it is one of these: any other name the model
   * or a `/call` makes up is labeled `unregistered`, so labels stay bounded.
   */
  toolsRegistered(names: readonly string[]): void;
}
