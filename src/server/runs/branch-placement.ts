import type { SnapshotMessage } from '../../core/protocol.ts';

/** Where a new turn goes on the branch shown (docs/protocol.md §5.2). */
export interface BranchPlacement {
  /** The message the turn follows; null at the conversation's start. */
  parentMessageId: string | null;
  /** The runs after that message on the branch shown: they leave it as the turn is made (a new branch). */
  leavingRunIds: string[];
}

/**
 * Places a new turn on the branch shown, whose settled messages `shown` are oldest first:
 * `parentMessageId` undefined continues the branch (after its last message), null starts the
 * conversation over, and a message id must be the last message of a turn (run) of `shown`.
 * Returns null when it is not.
 */
export function placeTurn(
  shown: readonly SnapshotMessage[],
  parentMessageId: string | null | undefined,
): BranchPlacement | null {
  if (parentMessageId === undefined) return { parentMessageId: shown.at(-1)?.messageId ?? null, leavingRunIds: [] };
  const index = parentMessageId === null ? -1 : shown.findIndex((message) => message.messageId === parentMessageId);
  if (parentMessageId !== null) {
    const parent = shown[index];
    const next = shown[index + 1];
    if (parent === undefined || (next !== undefined && next.runId === parent.runId)) return null;
  }
  const leaving = new Set(
    shown.slice(index + 1).flatMap((message) => (message.runId === undefined ? [] : [message.runId])),
  );
  return { parentMessageId, leavingRunIds: [...leaving] };
}
