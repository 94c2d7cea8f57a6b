import type { HistoryInterrupt, HistoryToolCall, SnapshotMessage } from '../../core/protocol.ts';
import type { HandlerContext } from '../operations/operation-context.ts';

/** The tool calls and interrupts a page of history carries besides its messages. */
export interface HistoryRunItems {
  toolCalls: HistoryToolCall[];
  interrupts: HistoryInterrupt[];
}

/**
 * The settled tool calls and interrupts of every run a page of history covers (docs/protocol.md
 * §5.7): all of each run's, whether or not a message of the page precedes them, read from the
 * run's final snapshot (one `getRun` per run, so a page costs what it shows, not the whole
 * session). Oldest run first, each run's in its own sequence, each with its run. A run whose
 * messages span two pages is on both; clients merge by id.
 */
export async function historyRunItemsOf(
  messages: readonly SnapshotMessage[],
  context: { storage: Pick<HandlerContext['storage'], 'getRun'> },
): Promise<HistoryRunItems> {
  // The page is newest first; its runs go oldest first.
  const oldestFirst = messages.toReversed();
  const runIds = [...new Set(oldestFirst.flatMap((message) => (message.runId === undefined ? [] : [message.runId])))];
  const runs = await Promise.all(runIds.map((runId) => context.storage.getRun(runId)));
  const items: HistoryRunItems = { toolCalls: [], interrupts: [] };
  for (const run of runs) {
    const snapshot = run?.finalSnapshot;
    if (!snapshot) continue;
    const { runId } = snapshot;
    items.toolCalls.push(...snapshot.toolCalls.map((call) => ({ ...call, runId })));
    items.interrupts.push(...snapshot.interrupts.map((interrupt) => ({ ...interrupt, runId })));
  }
  return items;
}
