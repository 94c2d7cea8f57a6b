import type { SqliteStatements } from './sqlite-context.ts';

/** The deletes sessions and retention share; each runs inside the caller's transaction. */
export interface SqliteDeletes {
  /** Deletes the run with its log, messages, lease, AG-UI segment and feedback. */
  deleteRun(runId: string): void;
  /** Deletes the session with all its runs and AG-UI threads, and adds what went to `deleted`. */
  deleteSession(sessionId: string, deleted: { sessionIds: string[]; runIds: string[] }): void;
}

/** Creates the deletes of a SQLite store over its statements. */
export function createSqliteDeletes(sql: SqliteStatements): SqliteDeletes {
  const deleteRun = (runId: string): void => {
    sql.deleteRunEvents.run(runId);
    sql.deleteRunMessages.run(runId);
    sql.deleteLease.run(runId);
    sql.deleteAgUiSegment.run(runId);
    sql.deleteRunFeedback.run(runId);
    sql.deleteRun.run(runId);
  };
  const deleteSession = (sessionId: string, deleted: { sessionIds: string[]; runIds: string[] }): void => {
    const runIds = sql.runIdsOfSession.all(sessionId).map((row) => row.run_id);
    for (const runId of runIds) deleteRun(runId);
    sql.deleteAgUiThreadsOfSession.run(sessionId);
    sql.deleteSession.run(sessionId);
    deleted.runIds.push(...runIds);
    deleted.sessionIds.push(sessionId);
  };
  return { deleteRun, deleteSession };
}
