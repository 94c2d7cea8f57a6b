import type { RunSnapshot, SnapshotMessage } from '../../../core/protocol.ts';
import { decodeSessionCursor, encodeSessionCursor } from '../session-cursor.ts';
import type { AgentStorage, Page, StoredSession } from '../storage-port.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';

/** The sessions and settled history role of the Postgres storage. */
export type PostgresSessions = Pick<
  AgentStorage,
  | 'getSession'
  | 'listSessions'
  | 'countSessionMessages'
  | 'updateSessionTitle'
  | 'showBranch'
  | 'deleteSession'
  | 'listSessionRunIds'
  | 'listTurnLinks'
  | 'listMessages'
  | 'listSettledToolCalls'
>;

/** A `sessions` row. */
export interface SessionRow {
  position: number;
  session_id: string;
  subject_id: string;
  agent_version_id: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  active_run_id: string | null;
  last_run_id: string | null;
}

/** The stored session of a `sessions` row. */
export function toSession(row: SessionRow): StoredSession {
  return {
    sessionId: row.session_id,
    subjectId: row.subject_id,
    agentVersionId: row.agent_version_id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    activeRunId: row.active_run_id,
    lastRunId: row.last_run_id,
  };
}

/** Inside a transaction: the subject's session, locked, or null when there is none of theirs. */
async function lockOwnSession(
  sql: RunSql,
  s: string,
  sessionId: string,
  subjectId: string,
): Promise<SessionRow | null> {
  const { rows } = await sql<SessionRow>(`SELECT * FROM ${s}.sessions WHERE session_id = $1 FOR UPDATE`, [sessionId]);
  const row = rows[0];
  return row === undefined || row.subject_id !== subjectId ? null : row;
}

/**
 * Sessions and their history. Settled messages are rows in settle order (`position`) with an
 * `in_history` flag, so a branch shown again comes back at the place it had; a session's rows go
 * with it (`ON DELETE CASCADE`), checked against its active run under the row's lock.
 */
export function createPostgresSessions({ s, query, transaction }: PostgresConnection): PostgresSessions {
  return {
    async getSession(sessionId) {
      const { rows } = await query<SessionRow>(`SELECT * FROM ${s}.sessions WHERE session_id = $1`, [sessionId]);
      return rows[0] === undefined ? null : toSession(rows[0]);
    },
    async listSessions(subjectId, page) {
      const cursor =
        page.after === undefined
          ? { updatedAt: Number.MAX_SAFE_INTEGER, tieBreak: String(Number.MAX_SAFE_INTEGER) }
          : decodeSessionCursor(page.after);
      if (cursor === null || !/^[0-9]{1,16}$/.test(cursor.tieBreak)) return null;
      // Equal times: latest created (highest position) first; the position is the cursor's tie-break.
      const { rows } = await query<SessionRow>(
        `SELECT * FROM ${s}.sessions WHERE subject_id = $1 AND (updated_at, position) < ($2, $3)
         ORDER BY updated_at DESC, position DESC LIMIT $4`,
        [subjectId, cursor.updatedAt, cursor.tieBreak, page.limit + 1],
      );
      const found = toPage(rows, page.limit, (row) =>
        encodeSessionCursor({ updatedAt: row.updated_at, tieBreak: String(row.position) }),
      );
      return { items: found.items.map(toSession), next: found.next };
    },
    async countSessionMessages(sessionId) {
      const { rows } = await query<{ count: number }>(
        `SELECT COUNT(*) AS count FROM ${s}.messages WHERE session_id = $1 AND in_history AND role <> 'reasoning'`,
        [sessionId],
      );
      return rows[0]?.count ?? 0;
    },
    updateSessionTitle: (request) =>
      transaction(async (sql) => {
        const row = await lockOwnSession(sql, s, request.sessionId, request.subjectId);
        if (row === null) return { kind: 'not_found' } as const;
        if (request.expectedTitle !== undefined && row.title !== request.expectedTitle) {
          return { kind: 'title_changed' } as const;
        }
        await sql(`UPDATE ${s}.sessions SET title = $1 WHERE session_id = $2`, [request.title, request.sessionId]);
        return { kind: 'updated', session: { ...toSession(row), title: request.title } } as const;
      }),
    showBranch: (request) =>
      transaction(async (sql) => {
        const row = await lockOwnSession(sql, s, request.sessionId, request.subjectId);
        if (row === null) return { kind: 'not_found' } as const;
        if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id } as const;
        const setInHistory = `UPDATE ${s}.messages SET in_history = $1 WHERE session_id = $2 AND run_id = ANY($3)`;
        await sql(setInHistory, [false, request.sessionId, request.leave]);
        await sql(setInHistory, [true, request.sessionId, request.enter]);
        return { kind: 'shown', session: toSession(row) } as const;
      }),
    deleteSession: (request) =>
      transaction(async (sql) => {
        const row = await lockOwnSession(sql, s, request.sessionId, request.subjectId);
        if (row === null) return { kind: 'not_found' } as const;
        if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id } as const;
        const { rows } = await sql<{ run_id: string }>(
          `SELECT run_id FROM ${s}.runs WHERE session_id = $1 ORDER BY position`,
          [request.sessionId],
        );
        await sql(`DELETE FROM ${s}.sessions WHERE session_id = $1`, [request.sessionId]);
        return { kind: 'deleted', runIds: rows.map((run) => run.run_id) } as const;
      }),
    async listSessionRunIds(sessionId) {
      const { rows } = await query<{ run_id: string }>(
        `SELECT run_id FROM ${s}.runs WHERE session_id = $1 ORDER BY position`,
        [sessionId],
      );
      return rows.map((row) => row.run_id);
    },
    async listTurnLinks(sessionId) {
      // Each run's last settled message: the terminal append writes them in order (in history or not).
      const { rows } = await query<{
        run_id: string;
        user_message_id: string;
        parent_type: string | null;
        parent_message_id: string | null;
        replaces_run_id: string | null;
        last_message_id: string | null;
      }>(
        `SELECT r.run_id, r.user_message_id,
           jsonb_typeof(r.start_json::jsonb -> 'parentMessageId') AS parent_type,
           r.start_json::jsonb ->> 'parentMessageId' AS parent_message_id,
           r.start_json::jsonb ->> 'replacesRunId' AS replaces_run_id,
           (SELECT m.message_id FROM ${s}.messages m WHERE m.run_id = r.run_id ORDER BY m.position DESC LIMIT 1)
             AS last_message_id
         FROM ${s}.runs r WHERE r.session_id = $1 ORDER BY r.position`,
        [sessionId],
      );
      return rows.map((row) => ({
        runId: row.run_id,
        userMessageId: row.user_message_id,
        parentMessageId:
          row.parent_type === 'string' ? row.parent_message_id : row.parent_type === 'null' ? null : undefined,
        ...(row.replaces_run_id === null ? {} : { replacesRunId: row.replaces_run_id }),
        lastMessageId: row.last_message_id,
      }));
    },
    async listMessages(sessionId, page) {
      let before = Number.MAX_SAFE_INTEGER;
      if (page.before !== undefined) {
        const { rows } = await query<{ position: number }>(
          `SELECT position FROM ${s}.messages WHERE session_id = $1 AND message_id = $2 AND in_history`,
          [sessionId, page.before],
        );
        if (rows[0] === undefined) return null;
        before = rows[0].position;
      }
      const { rows } = await query<{ message_json: string }>(
        `SELECT message_json FROM ${s}.messages WHERE session_id = $1 AND in_history AND position < $2
         ORDER BY position DESC LIMIT $3`,
        [sessionId, before, page.limit === undefined ? null : page.limit + 1],
      );
      const messages = rows.map((row) => JSON.parse(row.message_json) as SnapshotMessage);
      return toPage(messages, page.limit ?? messages.length, (message) => message.messageId);
    },
    async listSettledToolCalls(sessionId) {
      const { rows } = await query<{ run_id: string; final_snapshot_json: string }>(
        `SELECT run_id, final_snapshot_json FROM ${s}.runs
         WHERE session_id = $1 AND final_snapshot_json IS NOT NULL ORDER BY position`,
        [sessionId],
      );
      return rows.flatMap((row) => {
        const snapshot = JSON.parse(row.final_snapshot_json) as RunSnapshot;
        return snapshot.toolCalls.map((call) => ({ ...call, runId: row.run_id }));
      });
    },
  };
}

/** `rows` holds up to `limit + 1` items: the extra one only says that another page exists. */
function toPage<T>(rows: T[], limit: number, idOf: (item: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last !== undefined ? idOf(last) : null };
}
