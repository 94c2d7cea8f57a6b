import type { AgentStorage, StoredFeedback } from '../storage-port.ts';
import type { PostgresConnection } from './postgres-connection.ts';

/** The AG-UI links and feedback role of the Postgres storage: rows that go with their session or run. */
export type PostgresLinks = Pick<
  AgentStorage,
  'bindAgUiThread' | 'findAgUiThread' | 'setAgUiSegment' | 'getAgUiSegment' | 'putFeedback' | 'listFeedback'
>;

/**
 * AG-UI thread bindings, AG-UI run segments and votes. Each write inserts only while its session
 * or run exists (`INSERT … SELECT`), and its foreign key deletes it with them.
 */
export function createPostgresLinks({ s, query }: PostgresConnection): PostgresLinks {
  return {
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      await query(
        `INSERT INTO ${s}.ag_ui_threads (subject_id, thread_id, session_id)
         SELECT $1, $2, session_id FROM ${s}.sessions WHERE session_id = $3
         ON CONFLICT (subject_id, thread_id) DO UPDATE SET session_id = excluded.session_id`,
        [subjectId, threadId, sessionId],
      );
    },
    async findAgUiThread(subjectId, threadId) {
      const { rows } = await query<{ session_id: string }>(
        `SELECT session_id FROM ${s}.ag_ui_threads WHERE subject_id = $1 AND thread_id = $2`,
        [subjectId, threadId],
      );
      return rows[0]?.session_id ?? null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      await query(
        `INSERT INTO ${s}.ag_ui_segments (run_id, ag_ui_run_id) SELECT run_id, $1 FROM ${s}.runs WHERE run_id = $2
         ON CONFLICT (run_id) DO UPDATE SET ag_ui_run_id = excluded.ag_ui_run_id`,
        [agUiRunId, runId],
      );
    },
    async getAgUiSegment(runId) {
      const { rows } = await query<{ ag_ui_run_id: string }>(
        `SELECT ag_ui_run_id FROM ${s}.ag_ui_segments WHERE run_id = $1`,
        [runId],
      );
      return rows[0]?.ag_ui_run_id ?? null;
    },
    async putFeedback({ runId, subjectId, messageId, rating, comment, updatedAt }) {
      const result = await query(
        `INSERT INTO ${s}.feedback (run_id, subject_id, message_id, rating, comment, updated_at)
         SELECT run_id, $2, $3, $4, $5, $6 FROM ${s}.runs WHERE run_id = $1
         ON CONFLICT (run_id, subject_id, message_id) DO UPDATE
           SET rating = excluded.rating, comment = excluded.comment, updated_at = excluded.updated_at`,
        [runId, subjectId, messageId, rating, comment, updatedAt],
      );
      return result.rowCount > 0;
    },
    async listFeedback(runId, subjectId) {
      const { rows } = await query<{
        run_id: string;
        message_id: string;
        subject_id: string;
        rating: 'up' | 'down';
        comment: string | null;
        updated_at: number;
      }>(`SELECT * FROM ${s}.feedback WHERE run_id = $1 AND subject_id = $2 ORDER BY message_id COLLATE "C"`, [
        runId,
        subjectId,
      ]);
      return rows.map((row): StoredFeedback => ({
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
