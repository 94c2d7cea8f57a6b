import type { AgUiStorage } from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';

/** The AG-UI bindings role of the SQLite store: each call one statement. */
export function createSqliteAgUiStorage({ sql }: SqliteContext): AgUiStorage {
  return {
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      sql.bindAgUiThread.run(subjectId, threadId, sessionId);
    },
    async findAgUiThread(subjectId, threadId) {
      return sql.agUiThread.get(subjectId, threadId)?.session_id ?? null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      sql.setAgUiSegment.run(agUiRunId, runId);
    },
    async getAgUiSegment(runId) {
      return sql.agUiSegment.get(runId)?.ag_ui_run_id ?? null;
    },
  };
}
