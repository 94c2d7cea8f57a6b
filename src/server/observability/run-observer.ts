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
}
