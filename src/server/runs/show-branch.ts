import type { AgentStorage, StoredSession } from '../storage/storage-port.ts';
import { branchThrough, readConversationTree } from './conversation-tree.ts';

/** What {@link showBranchThrough} did; only `shown` changed anything. */
export type ShowBranchResult =
  | { kind: 'shown'; session: StoredSession }
  | { kind: 'not_found' }
  /** `messageId` starts no turn of the session. */
  | { kind: 'not_a_turn' }
  | { kind: 'run_active'; activeRunId: string };

/**
 * Makes the session show the branch through the turn `messageId` starts (docs/protocol.md §5.7),
 * down to the turn made last below it: that branch's runs come into the session's history and
 * every other run leaves it, in one storage step. Showing the branch already shown changes nothing.
 */
export async function showBranchThrough(
  storage: AgentStorage,
  request: { sessionId: string; subjectId: string; messageId: string },
): Promise<ShowBranchResult> {
  const session = await storage.getSession(request.sessionId);
  if (session === null || session.subjectId !== request.subjectId) return { kind: 'not_found' };
  const turns = await readConversationTree(storage, request.sessionId);
  const branch = branchThrough(turns, request.messageId);
  if (branch === null) return { kind: 'not_a_turn' };
  const shown = new Set(branch);
  return storage.showBranch({
    sessionId: request.sessionId,
    subjectId: request.subjectId,
    leave: turns.flatMap((turn) => (shown.has(turn.runId) ? [] : [turn.runId])),
    enter: branch,
  });
}
