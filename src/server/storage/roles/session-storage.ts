import type { SnapshotMessage } from '../../../core/protocol.ts';
import type { SettledToolCall } from '../../runs/run-handle.ts';

/** The storage reads settled tool calls back in the run's own shape. */
export type { SettledToolCall } from '../../runs/run-handle.ts';

/** A conversation as stored: pinned to one agent version, at most one active run. */
export interface StoredSession {
  sessionId: string;
  subjectId: string;
  agentVersionId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  activeRunId: string | null;
  lastRunId: string | null;
}

/** One run of a session as the conversation tree needs it (docs/protocol.md §5.7, "Branches"). */
export interface StoredTurnLink {
  runId: string;
  userMessageId: string;
  /** `start.parentMessageId`: a message id, null (the conversation's start), or undefined (a run made before branches). */
  parentMessageId: string | null | undefined;
  /** `start.replacesRunId`, when the run answered a failed one again. */
  replacesRunId?: string;
  /** The id of the run's last settled message (its final snapshot's last message); null while the run is live. */
  lastMessageId: string | null;
}

/** What {@link SessionStorage.updateSessionTitle} did; only `updated` changed anything. */
export type TitleUpdateOutcome =
  | { kind: 'updated'; session: StoredSession }
  | { kind: 'not_found' }
  /** The title was no longer `expectedTitle` (a rename got there first). */
  | { kind: 'title_changed' };

/** What {@link SessionStorage.showBranch} did; only `shown` changed anything. */
export type ShowBranchOutcome =
  | { kind: 'shown'; session: StoredSession }
  /** No such session, or another subject's. */
  | { kind: 'not_found' }
  | { kind: 'run_active'; activeRunId: string };

/** What {@link SessionStorage.deleteSession} did; only `deleted` changed anything. */
export type DeleteSessionOutcome =
  { kind: 'deleted'; runIds: string[] } | { kind: 'not_found' } | { kind: 'run_active'; activeRunId: string };

/** One page of a newest-first listing; `next` is the cursor of the following page, or null. */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/**
 * Sessions and their settled history: the subject's conversations, their titles, the branch each
 * shows and the messages and tool calls of its ended runs. A session is created with its first run
 * (`createRun`) and its history grows with each run's terminal append.
 */
export interface SessionStorage {
  getSession(sessionId: string): Promise<StoredSession | null>;
  /**
   * The subject's sessions, most recent activity (`updatedAt`) first, equal times latest created
   * first. `next` is a keyset cursor of the store (`session-cursor.ts`), so a session whose
   * activity moves while a client pages is neither repeated nor shifts the pages; null when `after`
   * is not such a cursor.
   */
  listSessions(subjectId: string, page: { after?: string; limit: number }): Promise<Page<StoredSession> | null>;
  /** Settled user and assistant messages in the session's history (reasoning is not counted). */
  countSessionMessages(sessionId: string): Promise<number>;
  /**
   * Sets the title of the subject's session; with `expectedTitle`, only while the title is still
   * that (a suggested title never overwrites a rename). Does not move `updatedAt`.
   */
  updateSessionTitle(request: {
    sessionId: string;
    subjectId: string;
    title: string;
    expectedTitle?: string | null;
  }): Promise<TitleUpdateOutcome>;
  /**
   * Shows another branch of the subject's session (docs/protocol.md §5.7): in one step, the settled
   * messages of the runs `leave` leave its history and those of `enter` come back, each at the place
   * it had (history stays in settle order), unless the session has an active run (checked in the same
   * step). Moves neither `updatedAt` nor `lastRunId`. Ids that are not ended runs of the session are
   * ignored; messages already in (or out of) history stay so, and a run named in both ends in it.
   */
  showBranch(request: {
    sessionId: string;
    subjectId: string;
    leave: readonly string[];
    enter: readonly string[];
  }): Promise<ShowBranchOutcome>;
  /**
   * Deletes the subject's session with all its runs, logs and messages, in one step, unless it
   * has an active run (checked in the same step, so a create cannot slip in between).
   */
  deleteSession(request: { sessionId: string; subjectId: string }): Promise<DeleteSessionOutcome>;
  /** Ids of the session's runs, oldest first. */
  listSessionRunIds(sessionId: string): Promise<string[]>;
  /**
   * The session's runs, oldest first, as links of its conversation tree: no message content is
   * read. Every run counts, whether its messages are in the history (the branch shown) or not.
   */
  listTurnLinks(sessionId: string): Promise<StoredTurnLink[]>;
  /**
   * Settled messages (from ended runs) in the session's history (the branch shown), newest first,
   * `limit` at most (all when omitted); null when `before` is not a message of that history.
   */
  listMessages(sessionId: string, page: { before?: string; limit?: number }): Promise<Page<SnapshotMessage> | null>;
  /**
   * The tool calls of the session's ended runs (their final snapshots), oldest run first and each
   * run's in log order: with `listMessages`, the history the engine rebuilds for the model.
   */
  listSettledToolCalls(sessionId: string): Promise<SettledToolCall[]>;
}
