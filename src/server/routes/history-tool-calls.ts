import type { HistoryToolCall, SnapshotMessage } from '../../core/protocol.ts';
import type { HandlerContext } from './route-context.ts';

/**
 * The settled tool calls a page of history shows (docs/protocol.md, "Session messages"): the
 * calls made by the page's messages, read from the final snapshot of each run the page's messages
 * come from (one `getRun` per run, so a page costs what it shows, not the whole session), in
 * each run's order, oldest run first, each with its run.
 */
export async function historyToolCallsOf(
  messages: readonly SnapshotMessage[],
  context: { storage: Pick<HandlerContext['storage'], 'getRun'> },
): Promise<HistoryToolCall[]> {
  const messageIds = new Set(messages.map((message) => message.messageId));
  // The page is newest first; its calls go oldest first, each run's in its own order.
  const oldestFirst = messages.toReversed();
  const runIds = [...new Set(oldestFirst.flatMap((message) => (message.runId === undefined ? [] : [message.runId])))];
  const runs = await Promise.all(runIds.map((runId) => context.storage.getRun(runId)));
  return runs.flatMap((run) => {
    if (run === null) return [];
    const calls = run.finalSnapshot?.toolCalls ?? [];
    const shown = calls.filter((call) => call.parentMessageId !== undefined && messageIds.has(call.parentMessageId));
    return shown.map((call) => ({ ...call, runId: run.runId }));
  });
}
