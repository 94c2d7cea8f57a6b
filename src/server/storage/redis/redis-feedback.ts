import { toFields } from '../redis-replies.ts';
import { PUT_FEEDBACK } from '../redis-record-scripts.ts';
import type { FeedbackStorage, StoredFeedback } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/** The feedback role of the Redis store: a run's votes are one hash in its shard. */
export function createRedisFeedbackStorage({ run, send, directory }: RedisContext): FeedbackStorage {
  return {
    async putFeedback(feedback) {
      const shard = await directory.find(feedback.runId);
      const field = JSON.stringify([feedback.subjectId, feedback.messageId]);
      const reply = await run(
        PUT_FEEDBACK,
        shard,
        { run: shard.run(feedback.runId), feedback: shard.of(`feedback:${feedback.runId}`) },
        { runId: feedback.runId, field, vote: JSON.stringify(feedback) },
      );
      return reply === 1;
    },
    async listFeedback(runId, subjectId) {
      const shard = await directory.find(runId);
      const fields = toFields(await send(['HGETALL', shard.of(`feedback:${runId}`)]));
      const votes = Object.values(fields).map((json) => JSON.parse(json) as StoredFeedback);
      return votes
        .filter((vote) => vote.subjectId === subjectId)
        .sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
    },
  };
}
