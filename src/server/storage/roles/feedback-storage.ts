/**
 * One person's rating of one answer (docs/protocol.md, "Feedback"): `subjectId` voted `rating` on
 * the assistant message `messageId` of run `runId`, with an optional comment. A later vote of the
 * same person on the same message replaces it. It goes with its run.
 */
export interface StoredFeedback {
  runId: string;
  messageId: string;
  subjectId: string;
  rating: 'up' | 'down';
  comment: string | null;
  /** Epoch ms of the vote. */
  updatedAt: number;
}

/** The people's votes on answers, kept with their runs. */
export interface FeedbackStorage {
  /** Keeps `feedback`, replacing the same person's earlier vote on that message; false (nothing kept) when the run no longer exists. */
  putFeedback(feedback: StoredFeedback): Promise<boolean>;
  /** The person's votes on the run's messages, in message id order (empty when none or no run). */
  listFeedback(runId: string, subjectId: string): Promise<StoredFeedback[]>;
}
