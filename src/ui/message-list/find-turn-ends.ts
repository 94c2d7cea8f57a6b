import type { SnapshotMessage, SnapshotToolCall } from '../../core/index.ts';

/**
 * The id of each run's last assistant message: the final answer of its turn, never a lead-in
 * before a tool call, also while that call runs (a message some tool call names as its parent).
 */
export function findTurnEnds(
  messages: readonly SnapshotMessage[],
  toolCalls: readonly SnapshotToolCall[] = [],
): ReadonlySet<string> {
  const leadIns = new Set(toolCalls.map((call) => call.parentMessageId));
  const lastOfRun = new Map<string | undefined, string>();
  for (const message of messages) if (message.role === 'assistant') lastOfRun.set(message.runId, message.messageId);
  return new Set([...lastOfRun.values()].filter((messageId) => !leadIns.has(messageId)));
}
