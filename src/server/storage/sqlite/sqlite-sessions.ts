import type { RunSnapshot, SnapshotMessage } from '../../../core/protocol.ts';
import { decodeSessionCursor, encodeSessionCursor } from '../session-cursor.ts';
import type { SessionRow } from '../sqlite-statements.ts';
import type {
  DeleteSessionOutcome,
  Page,
  SessionStorage,
  ShowBranchOutcome,
  StoredSession,
  TitleUpdateOutcome,
} from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';
import type { SqliteDeletes } from './sqlite-deletes.ts';

/** The sessions and history role of the SQLite store: each write one immediate transaction. */
export function createSqliteSessionStorage(context: SqliteContext, deletes: SqliteDeletes): SessionStorage {
  const { db, sql } = context;
  const updateSessionTitle = db.transaction(
    (request: Parameters<SessionStorage['updateSessionTitle']>[0]): TitleUpdateOutcome => {
      const row = sql.session.get(request.sessionId);
      if (row === undefined || row.subject_id !== request.subjectId) return { kind: 'not_found' };
      if (request.expectedTitle !== undefined && row.title !== request.expectedTitle) return { kind: 'title_changed' };
      sql.setSessionTitle.run(request.title, request.sessionId);
      return { kind: 'updated', session: { ...toSession(row), title: request.title } };
    },
  );
  const showBranch = db.transaction((request: Parameters<SessionStorage['showBranch']>[0]): ShowBranchOutcome => {
    const row = sql.session.get(request.sessionId);
    if (row === undefined || row.subject_id !== request.subjectId) return { kind: 'not_found' };
    if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id };
    for (const runId of request.leave) sql.setRunInHistory.run(0, request.sessionId, runId);
    for (const runId of request.enter) sql.setRunInHistory.run(1, request.sessionId, runId);
    return { kind: 'shown', session: toSession(row) };
  });
  const deleteOwnSession = db.transaction(
    (request: Parameters<SessionStorage['deleteSession']>[0]): DeleteSessionOutcome => {
      const row = sql.session.get(request.sessionId);
      if (row === undefined || row.subject_id !== request.subjectId) return { kind: 'not_found' };
      if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id };
      const deleted = { sessionIds: [] as string[], runIds: [] as string[] };
      deletes.deleteSession(request.sessionId, deleted);
      return { kind: 'deleted', runIds: deleted.runIds };
    },
  );

  return {
    async getSession(sessionId) {
      const row = sql.session.get(sessionId);
      return row === undefined ? null : toSession(row);
    },
    async listSessions(subjectId, page) {
      const cursor =
        page.after === undefined
          ? { updatedAt: Number.MAX_SAFE_INTEGER, tieBreak: '0' }
          : decodeSessionCursor(page.after);
      if (cursor === null || !/^[0-9]{1,15}$/.test(cursor.tieBreak)) return null;
      // Equal times: latest created (highest position) first; the position is the cursor's tie-break.
      const rows = sql.sessionsOfSubject.all(subjectId, cursor.updatedAt, Number(cursor.tieBreak), page.limit + 1);
      const found = toPage(rows, page.limit, (row) =>
        encodeSessionCursor({ updatedAt: row.updated_at, tieBreak: String(row.position) }),
      );
      return { items: found.items.map(toSession), next: found.next };
    },
    async countSessionMessages(sessionId) {
      return sql.sessionMessageCount.get(sessionId)?.count ?? 0;
    },
    async updateSessionTitle(request) {
      return updateSessionTitle.immediate(request);
    },
    async showBranch(request) {
      return showBranch.immediate(request);
    },
    async deleteSession(request) {
      return deleteOwnSession.immediate(request);
    },
    async listSessionRunIds(sessionId) {
      return sql.runIdsOfSession.all(sessionId).map((row) => row.run_id);
    },
    async listTurnLinks(sessionId) {
      return sql.turnLinksOfSession.all(sessionId).map((row) => ({
        runId: row.run_id,
        userMessageId: row.user_message_id,
        parentMessageId:
          row.parent_type === 'text' ? row.parent_message_id : row.parent_type === 'null' ? null : undefined,
        ...(row.replaces_run_id === null ? {} : { replacesRunId: row.replaces_run_id }),
        lastMessageId: row.last_message_id,
      }));
    },
    async listMessages(sessionId, page) {
      let before = Number.MAX_SAFE_INTEGER;
      if (page.before !== undefined) {
        const cursor = sql.messagePosition.get(sessionId, page.before);
        if (cursor === undefined) return null;
        before = cursor.position;
      }
      const limit = page.limit ?? -1;
      const rows = sql.messagesOfSession.all(sessionId, before, limit < 0 ? -1 : limit + 1);
      const messages = rows.map((row) => JSON.parse(row.message_json) as SnapshotMessage);
      return toPage(messages, limit < 0 ? messages.length : limit, (m) => m.messageId);
    },
    async listSettledToolCalls(sessionId) {
      return sql.finalSnapshotsOfSession.all(sessionId).flatMap((row) => {
        const snapshot = JSON.parse(row.final_snapshot_json) as RunSnapshot;
        return snapshot.toolCalls.map((call) => ({ ...call, runId: row.run_id }));
      });
    },
  };
}

/** The session a row of `sessions` holds. */
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

/** `rows` holds up to `limit + 1` items: the extra one only says that another page exists. */
function toPage<T>(rows: T[], limit: number, idOf: (item: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last !== undefined ? idOf(last) : null };
}
