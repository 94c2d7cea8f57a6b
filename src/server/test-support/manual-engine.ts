import type { RunEngine, RunHandle } from '../runs/run-handle.ts';
import { isTerminalRunStatus } from '../../core/protocol.ts';

/** A test engine whose runs the test drives through their handles. */
export interface ManualEngine extends RunEngine {
  /** Resolves with the handle of `runId` once the store has started it. */
  handleOf(runId: string): Promise<RunHandle>;
}

/**
 * Creates an engine that does nothing by itself: `start` hands the run's handle to the test
 * (`handleOf`) and resolves when the run has its terminal event, as the contract says.
 */
export function createManualEngine(): ManualEngine {
  const handles = new Map<string, RunHandle>();
  const waiting = new Map<string, (handle: RunHandle) => void>();
  return {
    async start(handle) {
      handles.set(handle.runId, handle);
      waiting.get(handle.runId)?.(handle);
      waiting.delete(handle.runId);
      await handle.waitFor((s) => isTerminalRunStatus(s.status));
    },
    handleOf(runId) {
      const handle = handles.get(runId);
      if (handle !== undefined) return Promise.resolve(handle);
      return new Promise((resolve) => waiting.set(runId, resolve));
    },
  };
}

/**
 * Creates an engine that scripts a short answer: `running`, one assistant message of `deltas`,
 * then `RUN_FINISHED{success}`. With `holdUntilCancel`, it stops after the deltas and finishes
 * only when the run's signal aborts (then closes the message as cancelled).
 */
export function createScriptedTestEngine(
  options: { deltas?: readonly string[]; holdUntilCancel?: boolean } = {},
): RunEngine {
  const deltas = options.deltas ?? ['Hello', ', ', 'world', '.'];
  return {
    async start(handle) {
      await handle.append('RUN_STATUS_CHANGED', { status: 'running' });
      const messageId = `msg_answer_${handle.runId}`;
      await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
      for (const delta of deltas) await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta });
      if (options.holdUntilCancel === true) {
        await new Promise<void>((resolve) => {
          if (handle.signal.aborted) resolve();
          handle.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'cancelled' });
        await handle.append('RUN_FINISHED', { outcome: { type: 'cancelled', reason: String(handle.signal.reason) } });
        return;
      }
      await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
      await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    },
  };
}
