import type { EventDataMap, RunSnapshot, SnapshotToolCall, SnapshotToolExecutor } from '../protocol.ts';
import { pickDefined } from '../pick-defined.ts';
import type { RunEventFold } from './run-reducer.ts';
import { updateToolCall } from './run-reducer.ts';

/**
 * Folds the events of browser tools (docs/protocol.md §19) into a snapshot, after `reduceRun`'s
 * own fold: the executor kind a `TOOL_CALL_START` announces, then `TOOL_CALL_DISPATCHED`,
 * `_CLAIMED`, `_RELEASED`, `_RECEIPT` and `_REPORTED` into the call's `executor` (and its status
 * and progress while it has no result). The server folds every run with it; a page only when it
 * runs browser tools (`agent-chat-tools.js` installs it), so the widget alone does not carry it.
 */
export const foldExecutorEvents: RunEventFold = (s, event) => {
  switch (event.type) {
    case 'TOOL_CALL_START': {
      const kind = event.data.executorKind;
      return kind === undefined ? s : updateExecutor(s, event.data.toolCallId, { kind });
    }
    case 'TOOL_CALL_DISPATCHED':
      return updateExecutor(
        s,
        event.data.toolCallId,
        { expiresAt: event.data.expiresAt },
        { status: 'awaiting_executor' },
      );
    case 'TOOL_CALL_CLAIMED': {
      const { executorId, grantDigest } = event.data;
      return updateExecutor(s, event.data.toolCallId, { executorId, grantDigest });
    }
    case 'TOOL_CALL_RELEASED':
      return updateExecutor(s, event.data.toolCallId, { executorId: undefined, grantDigest: undefined });
    case 'TOOL_CALL_RECEIPT':
      return applyReceipt(s, event.data, event.timestamp);
    case 'TOOL_CALL_REPORTED':
      return event.data.code === 'reconciliation_required'
        ? updateExecutor(s, event.data.toolCallId, { reconciliation: 'required' })
        : s;
    default:
      return s;
  }
};

function applyReceipt(s: RunSnapshot, receipt: EventDataMap['TOOL_CALL_RECEIPT'], timestamp: number): RunSnapshot {
  const { toolCallId, kind, message, fraction, receiptId, content = '', truncated } = receipt;
  const seen = { receiptSequence: receipt.sequence };
  if (kind === 'accepted')
    return updateExecutor(s, toolCallId, { ...seen, acceptedAt: timestamp }, { status: 'running' });
  if (kind === 'progress')
    return updateExecutor(s, toolCallId, seen, { status: 'running', progress: pickDefined({ message, fraction }) });
  return updateExecutor(s, toolCallId, { ...seen, outcome: pickDefined({ kind, receiptId, content, truncated }) });
}

/**
 * Merges `patch` into a browser call's `executor` (an `undefined` member removes that member) and,
 * while the call has no result yet, `change` into the call itself (its status, its progress).
 */
function updateExecutor(
  s: RunSnapshot,
  toolCallId: string,
  patch: Partial<SnapshotToolExecutor>,
  change: Partial<Pick<SnapshotToolCall, 'status' | 'progress'>> = {},
): RunSnapshot {
  return updateToolCall(s, toolCallId, (c) => ({
    ...c,
    executor: pickDefined({ kind: 'browser' as const, ...c.executor, ...patch }),
    ...(c.result === undefined ? change : {}),
  }));
}
