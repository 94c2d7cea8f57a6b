import type { FeedbackStorage } from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';

/** The feedback role of the SQLite store: each call one statement. */
export function createSqliteFeedbackStorage({ sql }: SqliteContext): FeedbackStorage {
  return {
    async putFeedback(feedback) {
      const { runId, subjectId, messageId, rating, comment, updatedAt } = feedback;
      return sql.putFeedback.run(subjectId, messageId, rating, comment, updatedAt, runId).changes > 0;
    },
    async listFeedback(runId, subjectId) {
      return sql.feedbackOfSubject.all(runId, subjectId).map((row) => ({
        runId: row.run_id,
        messageId: row.message_id,
        subjectId: row.subject_id,
        rating: row.rating,
        comment: row.comment,
        updatedAt: row.updated_at,
      }));
    },
  };
}
