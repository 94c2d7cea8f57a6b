import type { AgentStorage } from '../storage/storage-port.ts';

/**
 * What the AG-UI endpoint remembers beside the run store (docs/ag-ui.md, "Threads"): which of our
 * sessions an AG-UI `threadId` names, and which AG-UI run is the live segment of each of our runs.
 * Kept in the storage, so it survives a restart and holds on every process; a binding goes with
 * its session, a segment with its run.
 */
export interface AgUiThreads {
  /** Our session for the subject's thread, if one was made. */
  sessionOf(subjectId: string, threadId: string): Promise<string | undefined>;
  /** Records the session that serves the subject's thread. */
  bind(subjectId: string, threadId: string, sessionId: string): Promise<void>;
  /** Records the AG-UI run that now serves our run (a new run, or a resume of it). */
  setLiveSegment(ourRunId: string, agUiRunId: string): Promise<void>;
  /** True when `agUiRunId` is the AG-UI run that serves our run now. */
  isLiveSegment(ourRunId: string, agUiRunId: string): Promise<boolean>;
}

/** Creates the endpoint's memory over `storage`. */
export function createAgUiThreads(storage: AgentStorage): AgUiThreads {
  return {
    sessionOf: async (subjectId, threadId) => (await storage.findAgUiThread(subjectId, threadId)) ?? undefined,
    bind: (subjectId, threadId, sessionId) => storage.bindAgUiThread({ subjectId, threadId, sessionId }),
    setLiveSegment: (ourRunId, agUiRunId) => storage.setAgUiSegment(ourRunId, agUiRunId),
    isLiveSegment: async (ourRunId, agUiRunId) => (await storage.getAgUiSegment(ourRunId)) === agUiRunId,
  };
}
