/**
 * A message of a conversation as a snapshot or a page of history shows it (docs/protocol.md §5.3,
 * §5.7). Part of the wire contract; import it through `src/core/protocol.ts`.
 */
import type { AttachmentRef, ContextRef, FinishReason, FocusSummary, MessageRole } from './basics.ts';
import type { FeedbackRequest } from './generated/wire-contract.ts';

export type MessageStatus = 'streaming' | 'complete' | 'cancelled' | 'error';

/** A person's vote on an answer (docs/protocol.md §5.9). */
export type MessageFeedback = Pick<FeedbackRequest, 'rating' | 'comment'>;

export interface SnapshotMessage {
  messageId: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  runId?: string;
  /**
   * The seq of the event that started it in its run (docs/protocol.md §7.4): a transcript reads
   * by run, then by this. Absent on items stored before it was recorded.
   */
  seq?: number;
  clientMessageId?: string;
  inputId?: string;
  parentMessageId?: string;
  finishReason?: FinishReason;
  contextRefs?: ContextRef[];
  /** A user message's attached files (docs/protocol.md §5.8). */
  attachments?: AttachmentRef[];
  /** A user message sent with page context (docs/protocol.md §5.2): its title and size. */
  focus?: FocusSummary;
  /** On a REST read of an answer: the caller's vote on it (docs/protocol.md §5.9). */
  feedback?: MessageFeedback;
  /**
   * On a page of history (docs/protocol.md §5.7), a user message whose turn has other versions
   * (regenerated or edited: the same `parentMessageId`): the user messages of all of them, oldest
   * first, this one included.
   */
  branchMessageIds?: string[];
  createdAt?: number;
}
