/**
 * The AG-UI endpoint's bindings (docs/ag-ui.md): which session serves a subject's thread, and which
 * AG-UI run serves one of our runs. Each goes with its session or run.
 */
export interface AgUiStorage {
  /**
   * Records that the subject's AG-UI thread is served by `sessionId` (docs/ag-ui.md, "Threads"),
   * replacing an earlier binding; nothing when the session no longer exists. A binding goes with
   * its session.
   */
  bindAgUiThread(binding: { subjectId: string; threadId: string; sessionId: string }): Promise<void>;
  /** The session bound to the subject's AG-UI thread, or null. */
  findAgUiThread(subjectId: string, threadId: string): Promise<string | null>;
  /**
   * Records the AG-UI run that serves our run now (its creation, or the latest resume); nothing
   * when the run no longer exists. It goes with the run.
   */
  setAgUiSegment(runId: string, agUiRunId: string): Promise<void>;
  /** The AG-UI run that serves our run now, or null. */
  getAgUiSegment(runId: string): Promise<string | null>;
}
