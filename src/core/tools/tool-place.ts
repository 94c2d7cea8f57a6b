import type { ToolRunnerView } from '../client/client-state.ts';
import type { SnapshotToolCall } from '../protocol.ts';
import type { ToolRunnerStrings } from './tool-runner-strings.ts';

/** Where a browser tool call runs, as this page's runner sees it. */
export type ToolPlace = 'here' | 'elsewhere' | 'reconcile';

/**
 * Says where a browser tool call runs, from this page's runner view and the call's snapshot:
 * `reconcile` once its outcome needs reconciliation, `elsewhere` when another tab or browser has
 * it, `here` when this page's runner takes it; null when this runner has no part in it (a server
 * tool, a call nobody claimed yet).
 */
export function toolPlaceOf(toolCall: SnapshotToolCall, view: Pick<ToolRunnerView, 'calls'>): ToolPlace | null {
  const phase = view.calls[toolCall.toolCallId];
  if (toolCall.executor?.reconciliation !== undefined || phase === 'needs_reconciliation') return 'reconcile';
  if (phase === undefined) return null;
  return phase === 'elsewhere' ? 'elsewhere' : 'here';
}

/**
 * Writes what a browser call's card says instead of its status: that it needs reconciliation,
 * where it runs with its status ("Running in this browser"), or that it waits for a browser;
 * undefined for a server tool and for a status the card says well enough itself.
 */
export function describeToolCall(
  toolCall: SnapshotToolCall,
  view: Pick<ToolRunnerView, 'calls'>,
  strings: ToolRunnerStrings,
): string | undefined {
  if (toolCall.executor === undefined) return undefined;
  const place = toolPlaceOf(toolCall, view);
  if (place === 'reconcile') return strings.needsReconciliation;
  if (place === null) return toolCall.status === 'awaiting_executor' ? strings.waiting : undefined;
  const status = strings.statuses[toolCall.status];
  return status === undefined ? undefined : strings[place].replace('{status}', status);
}

/** The notes of every browser call in `toolCalls` that has one, by tool call id. */
export function describeToolCalls(
  toolCalls: readonly SnapshotToolCall[],
  view: Pick<ToolRunnerView, 'calls'>,
  strings: ToolRunnerStrings,
): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const toolCall of toolCalls) {
    const note = describeToolCall(toolCall, view, strings);
    if (note !== undefined) notes[toolCall.toolCallId] = note;
  }
  return notes;
}
