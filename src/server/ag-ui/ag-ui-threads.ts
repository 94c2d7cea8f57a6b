/**
 * What the AG-UI endpoint remembers beside the run store (docs/ag-ui.md, "Threads"): which of our
 * sessions an AG-UI `threadId` names, and which AG-UI run is the live segment of each of our runs.
 * In memory and bounded; the least recently used entries are forgotten first.
 */
export interface AgUiThreads {
  /** Our session for the subject's thread, if one was made. */
  sessionOf(subjectId: string, threadId: string): string | undefined;
  /** Records the session that serves the subject's thread. */
  bind(subjectId: string, threadId: string, sessionId: string): void;
  /** Records the AG-UI run that now serves our run (a new run, or a resume of it). */
  setLiveSegment(ourRunId: string, agUiRunId: string): void;
  /** True when `agUiRunId` is the AG-UI run that serves our run now. */
  isLiveSegment(ourRunId: string, agUiRunId: string): boolean;
}

/** Creates the endpoint's memory, keeping at most `maxEntries` of each map. */
export function createAgUiThreads(maxEntries: number): AgUiThreads {
  const sessions = new Map<string, string>();
  const segments = new Map<string, string>();
  const remember = (map: Map<string, string>, key: string, value: string): void => {
    map.delete(key);
    map.set(key, value);
    if (map.size > maxEntries) map.delete(map.keys().next().value as string);
  };
  const threadKey = (subjectId: string, threadId: string): string => `${subjectId}\u0000${threadId}`;
  return {
    sessionOf(subjectId, threadId) {
      const key = threadKey(subjectId, threadId);
      const sessionId = sessions.get(key);
      if (sessionId !== undefined) remember(sessions, key, sessionId);
      return sessionId;
    },
    bind: (subjectId, threadId, sessionId) => remember(sessions, threadKey(subjectId, threadId), sessionId),
    setLiveSegment: (ourRunId, agUiRunId) => remember(segments, ourRunId, agUiRunId),
    isLiveSegment: (ourRunId, agUiRunId) => segments.get(ourRunId) === agUiRunId,
  };
}
