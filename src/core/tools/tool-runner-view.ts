import type { ToolRunnerPhase, ToolRunnerView } from '../client/client-state.ts';
import type { SnapshotToolCall } from '../protocol.ts';
import { describeToolCalls } from './tool-place.ts';
import type { ToolRunnerStrings } from './tool-runner-strings.ts';

/** What happens to a runner's view: it starts with its executor, a call moves on, the transcript changes, it stops. */
export type ToolRunnerViewAction =
  | { type: 'started'; executorId: string }
  | { type: 'phaseChanged'; toolCallId: string; phase: ToolRunnerPhase }
  | { type: 'toolCallsSeen'; toolCalls: readonly SnapshotToolCall[]; strings: ToolRunnerStrings }
  | { type: 'stopped' };

/**
 * Folds one action into the runner's view (what the client shows as `state.toolRunner`), returning
 * a new view, or the same one when nothing changed. Pure; a call's phase before `started` is dropped.
 */
export function reduceToolRunnerView(view: ToolRunnerView | null, action: ToolRunnerViewAction): ToolRunnerView | null {
  switch (action.type) {
    case 'started':
      return { executorId: action.executorId, calls: view?.calls ?? {}, notes: view?.notes ?? {} };
    case 'phaseChanged':
      if (view === null || view.calls[action.toolCallId] === action.phase) return view;
      return { ...view, calls: { ...view.calls, [action.toolCallId]: action.phase } };
    case 'toolCallsSeen': {
      if (view === null) return view;
      const notes = describeToolCalls(action.toolCalls, view, action.strings);
      return isSameRecord(notes, view.notes) ? view : { ...view, notes };
    }
    case 'stopped':
      return null;
  }
}

function isSameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
