import type { AgUiStorage } from '../storage-port.ts';
import type { MemoryState } from './memory-state.ts';

/** The AG-UI bindings role of the in-memory store: a binding goes with its session or run. */
export function createMemoryAgUiStorage(state: MemoryState): AgUiStorage {
  const { sessions, runs, agUiThreads, agUiThreadsOfSession, agUiSegments } = state;
  return {
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      if (!sessions.has(sessionId)) return;
      const key = JSON.stringify([subjectId, threadId]);
      const previous = agUiThreads.get(key);
      if (previous !== undefined) agUiThreadsOfSession.get(previous)?.delete(key);
      agUiThreads.set(key, sessionId);
      agUiThreadsOfSession.set(sessionId, (agUiThreadsOfSession.get(sessionId) ?? new Set()).add(key));
    },
    async findAgUiThread(subjectId, threadId) {
      return agUiThreads.get(JSON.stringify([subjectId, threadId])) ?? null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      if (runs.has(runId)) agUiSegments.set(runId, agUiRunId);
    },
    async getAgUiSegment(runId) {
      return agUiSegments.get(runId) ?? null;
    },
  };
}
