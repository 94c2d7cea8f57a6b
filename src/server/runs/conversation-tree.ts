import type { SnapshotMessage } from '../../core/protocol.ts';
import type { AgentStorage } from '../storage/storage-port.ts';

/** One turn of a conversation's tree (docs/protocol.md §5.7): a run and where it hangs. */
export interface TreeTurn {
  runId: string;
  /** The message that started the turn. */
  userMessageId: string;
  /** The message the turn follows (the last message of its parent turn); null at the conversation's start. */
  parentMessageId: string | null;
  /** The turn's last settled message, which a later turn can follow; null while the run is live. */
  lastMessageId: string | null;
}

/**
 * Reads the turns of a session, oldest first: every run of it but those a retry answered again.
 * A run made before branches (no recorded parent) follows the turn made before it. One storage
 * read of the session's turn links, which holds no message content.
 */
export async function readConversationTree(
  storage: Pick<AgentStorage, 'listTurnLinks'>,
  sessionId: string,
): Promise<TreeTurn[]> {
  const links = await storage.listTurnLinks(sessionId);
  const answeredAgain = new Set(links.map((link) => link.replacesRunId));
  const turns: TreeTurn[] = [];
  for (const link of links) {
    if (answeredAgain.has(link.runId)) continue;
    const recorded = link.parentMessageId;
    turns.push({
      runId: link.runId,
      userMessageId: link.userMessageId,
      parentMessageId: recorded === undefined ? (turns.at(-1)?.lastMessageId ?? null) : recorded,
      lastMessageId: link.lastMessageId,
    });
  }
  return turns;
}

/** The user messages of the turns that follow `parentMessageId` (the versions of one turn), oldest first. */
export function versionsAfter(turns: readonly TreeTurn[], parentMessageId: string | null): string[] {
  return turns.filter((turn) => turn.parentMessageId === parentMessageId).map((turn) => turn.userMessageId);
}

/**
 * The runs of the branch through the turn `userMessageId` starts, from the conversation's start
 * down to the turn made last below it (the branch last used there); null when no turn starts with
 * that message.
 */
export function branchThrough(turns: readonly TreeTurn[], userMessageId: string): string[] | null {
  const chosen = turns.find((turn) => turn.userMessageId === userMessageId);
  if (chosen === undefined) return null;
  // Turns are oldest first and follow their parents, so one pass collects everything below.
  const ends = new Set(chosen.lastMessageId === null ? [] : [chosen.lastMessageId]);
  let newest = chosen;
  for (const turn of turns) {
    if (turn.parentMessageId === null || !ends.has(turn.parentMessageId)) continue;
    if (turn.lastMessageId !== null) ends.add(turn.lastMessageId);
    newest = turn;
  }
  const byLastMessage = new Map(
    turns.flatMap((turn) => (turn.lastMessageId === null ? [] : [[turn.lastMessageId, turn]])),
  );
  const branch: string[] = [];
  for (let turn: TreeTurn | undefined = newest; turn !== undefined && branch.length < turns.length;) {
    branch.unshift(turn.runId);
    turn = turn.parentMessageId === null ? undefined : byLastMessage.get(turn.parentMessageId);
  }
  return branch;
}

/**
 * The page's messages with the versions of their turns: a user message whose turn has others (the
 * same parent) carries `branchMessageIds`, the user messages of all of them, oldest first.
 */
export function withVersions(messages: readonly SnapshotMessage[], turns: readonly TreeTurn[]): SnapshotMessage[] {
  const parentOf = new Map(turns.map((turn) => [turn.userMessageId, turn.parentMessageId]));
  return messages.map((message) => {
    const parent = message.role === 'user' ? parentOf.get(message.messageId) : undefined;
    if (parent === undefined) return message;
    const versions = versionsAfter(turns, parent);
    return versions.length < 2 ? message : { ...message, branchMessageIds: versions };
  });
}
