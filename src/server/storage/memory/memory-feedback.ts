import type { FeedbackStorage, StoredFeedback } from '../storage-port.ts';
import type { MemoryState } from './memory-state.ts';

/** The feedback role of the in-memory store: the votes go with their run. */
export function createMemoryFeedbackStorage(state: MemoryState): FeedbackStorage {
  const { runs, feedbackOfRun } = state;
  return {
    async putFeedback(feedback) {
      if (!runs.has(feedback.runId)) return false;
      const votes = feedbackOfRun.get(feedback.runId) ?? new Map<string, StoredFeedback>();
      votes.set(JSON.stringify([feedback.subjectId, feedback.messageId]), { ...feedback });
      feedbackOfRun.set(feedback.runId, votes);
      return true;
    },
    async listFeedback(runId, subjectId) {
      return [...(feedbackOfRun.get(runId)?.values() ?? [])]
        .filter((vote) => vote.subjectId === subjectId)
        .sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0))
        .map((vote) => ({ ...vote }));
    },
  };
}
