import type { SnapshotMessage } from '../../core/protocol.ts';
import type { SettledToolCall } from './run-handle.ts';
import type { AgentStorage } from '../storage/storage-port.ts';

/** A session's settled history as the engine gets it: messages and tool calls of its ended runs, oldest first. */
export interface SessionHistory {
  history: readonly SnapshotMessage[];
  historyToolCalls: readonly SettledToolCall[];
}

/**
 * The branch a session shows (docs/protocol.md §5.7): its settled messages of every role, oldest
 * first, and the tool calls of its ended runs (on this branch or not).
 */
export interface ShownBranch {
  messages: readonly SnapshotMessage[];
  toolCalls: readonly SettledToolCall[];
}

/** Reads the branch session `sessionId` shows. */
export async function readShownBranch(storage: AgentStorage, sessionId: string): Promise<ShownBranch> {
  const [page, toolCalls] = await Promise.all([
    storage.listMessages(sessionId, {}),
    storage.listSettledToolCalls(sessionId),
  ]);
  return { messages: [...(page?.items ?? [])].reverse(), toolCalls };
}

/** The branch without the messages of runs `runIds` (a run answered again, or turns a new branch leaves). */
export function withoutRuns(branch: ShownBranch, runIds: readonly (string | undefined)[]): ShownBranch {
  const leaving = new Set(runIds);
  return { ...branch, messages: branch.messages.filter((message) => !leaving.has(message.runId)) };
}

/**
 * What the model sees of a branch: its finished user and assistant messages, and the tool calls of
 * its runs (never those of another branch or of a run answered again).
 */
export function historyOf(branch: ShownBranch): SessionHistory {
  const runIds = new Set(branch.messages.map((message) => message.runId));
  return {
    history: branch.messages.filter(
      (message) => message.role !== 'reasoning' && message.status !== 'streaming' && message.content !== '',
    ),
    historyToolCalls: branch.toolCalls.filter((call) => runIds.has(call.runId)),
  };
}
