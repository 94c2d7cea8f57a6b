import type BetterSqlite3 from 'better-sqlite3';
import type { EventEnvelope, RunSnapshot, SnapshotMessage } from '../../core/protocol.ts';
import { EventLogConflictError } from '../runs/event-log.ts';
import { requireOptionalPeer } from '../optional-peer.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import { checkAppendBatch, withoutMessages } from './append-rules.ts';
import { createDoorbells } from './doorbells.ts';
import { describeSqliteOpenError, preparePrivateSqliteFile } from './sqlite-file.ts';
import { migrateSqlite } from './sqlite-migrations.ts';
import { createSqliteStatements } from './sqlite-statements.ts';
import type { RunRow, SessionRow } from './sqlite-statements.ts';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.ts';
import { IdempotencyLockLostError, roomUnderCaps } from './storage-port.ts';
import type {
  AgentStorage,
  AppendOptions,
  DeleteSessionOutcome,
  IdempotencyCompletion,
  Page,
  RetentionRequest,
  ShowBranchOutcome,
  StoredRun,
  StoredSession,
  TitleUpdateOutcome,
} from './storage-port.ts';

/** Options of {@link openSqliteStorage}. */
export interface SqliteStorageOptions {
  /** A file path (its folder is created), or `:memory:` for a private in-memory database. */
  path: string;
  /** How long a write waits for another process's lock before failing. Default 5 000 ms. */
  busyTimeoutMs?: number;
  /**
   * The most the database file may grow to (SQLite's `max_page_count`, never below its size when
   * opened). Past it a write that needs a new page fails with `SQLITE_FULL`, as on a full disk.
   * Default: no cap.
   */
  maxBytes?: number;
}

/**
 * Opens the SQLite {@link AgentStorage} (one file, WAL, `synchronous=NORMAL`: a committed append
 * survives a killed process; an OS crash may lose the last few). Runs the versioned migrations
 * first. Every write is one immediate transaction, so several processes may share the file; the
 * doorbell of live tails is in-process only. The folder, file, `-wal` and `-shm` are owner-only
 * (`preparePrivateSqliteFile`); a damaged or unreadable file throws a `StorageOpenError` naming it.
 */
export function openSqliteStorage(options: SqliteStorageOptions): AgentStorage {
  const Database = loadBetterSqlite3();
  let db: BetterSqlite3.Database | undefined;
  try {
    if (options.path !== ':memory:') preparePrivateSqliteFile(options.path);
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrateSqlite(db);
    if (options.maxBytes !== undefined) {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
    }
  } catch (error) {
    db?.close();
    throw describeSqliteOpenError(options.path, error);
  }
  return createSqliteStorage(db);
}

function createSqliteStorage(db: BetterSqlite3.Database): AgentStorage {
  const sql = createSqliteStatements(db);
  const doorbells = createDoorbells();

  const holdsLock = (completion: IdempotencyCompletion): boolean => {
    const row = sql.idempotencyLock.get(completion.recordId);
    return row?.state === 'in_progress' && row.token === completion.token;
  };
  const complete = (completion: IdempotencyCompletion): void => {
    sql.completeIdempotency.run(JSON.stringify(completion.response), completion.expiresAt, completion.recordId);
  };
  const messagesOfRun = (runId: string): SnapshotMessage[] =>
    sql.messagesOfRun.all(runId).map((row) => JSON.parse(row.message_json) as SnapshotMessage);
  const toRun = (row: RunRow): StoredRun => {
    const stripped = row.final_snapshot_json === null ? null : (JSON.parse(row.final_snapshot_json) as RunSnapshot);
    return {
      runId: row.run_id,
      sessionId: row.session_id,
      subjectId: row.subject_id,
      userMessageId: row.user_message_id,
      createdAt: row.created_at,
      start: JSON.parse(row.start_json) as StoredRun['start'],
      firstSeq: row.first_seq,
      lastSeq: row.last_seq,
      endedAt: row.ended_at,
      finalSnapshot: stripped === null ? null : { ...stripped, messages: messagesOfRun(row.run_id) },
      isCompacted: row.compacted === 1,
    };
  };

  const createRun = db.transaction((command: Parameters<AgentStorage['createRun']>[0]) => {
    let session: StoredSession;
    if (command.session.kind === 'new') {
      session = command.session.session;
    } else {
      const row = sql.session.get(command.session.sessionId);
      if (row === undefined || row.subject_id !== command.run.subjectId) return { kind: 'session_not_found' } as const;
      if (row.agent_version_id !== command.started.data.agent.versionId) {
        return { kind: 'version_mismatch', agentVersionId: row.agent_version_id } as const;
      }
      if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id } as const;
      session = toSession(row);
    }
    const { replacesRunId } = command;
    if (replacesRunId !== undefined && session.lastRunId !== replacesRunId) return { kind: 'not_latest_run' } as const;
    if (command.idempotency !== undefined && !holdsLock(command.idempotency)) {
      return { kind: 'idempotency_lost' } as const;
    }
    const leaving = [...(replacesRunId === undefined ? [] : [replacesRunId]), ...(command.leavesHistory ?? [])];
    for (const runId of leaving) sql.setRunInHistory.run(0, session.sessionId, runId);
    const { run } = command;
    const updated: StoredSession = {
      ...session,
      activeRunId: run.runId,
      lastRunId: run.runId,
      updatedAt: run.createdAt,
      title: session.title ?? command.title,
    };
    if (command.session.kind === 'new') {
      sql.insertSession.run(
        updated.sessionId,
        updated.subjectId,
        updated.agentVersionId,
        updated.title,
        updated.createdAt,
        updated.updatedAt,
        updated.activeRunId,
        updated.lastRunId,
      );
    } else {
      sql.startSessionRun.run(run.runId, run.runId, run.createdAt, updated.title, updated.sessionId);
    }
    sql.insertRun.run(
      run.runId,
      run.sessionId,
      run.subjectId,
      run.userMessageId,
      run.createdAt,
      JSON.stringify(run.start),
    );
    sql.insertEvent.run(run.runId, 1, JSON.stringify(command.started));
    sql.upsertLease.run(run.runId, command.lease.owner, command.lease.expiresAt);
    if (command.idempotency !== undefined) complete(command.idempotency);
    return { kind: 'created', session: updated } as const;
  });

  /**
   * One append inside the group commit. Every check runs before the first write, so a refused
   * append (returned as its error) leaves nothing behind; a failing write throws and aborts the batch.
   */
  const appendOne = (
    runId: string,
    expectedLastSeq: number,
    events: readonly EventEnvelope[],
    options: AppendOptions = {},
  ): { isAppended: boolean } | { error: unknown } => {
    let isEnding: boolean;
    const row = sql.runLog.get(runId);
    try {
      if (row === undefined) throw new RangeError(`Run ${runId} does not exist.`);
      if (row.ended_at !== null) throw new RunClosedError(runId);
      if (row.last_seq !== expectedLastSeq) throw new EventLogConflictError(runId, expectedLastSeq, row.last_seq);
      isEnding = checkAppendBatch(runId, expectedLastSeq, events, options);
      if (options.idempotency !== undefined && !holdsLock(options.idempotency)) {
        throw new IdempotencyLockLostError(options.idempotency.recordId);
      }
    } catch (error) {
      return { error };
    }
    const last = events[events.length - 1];
    if (last === undefined) return { isAppended: false };
    for (const event of events) sql.insertEvent.run(runId, event.seq, JSON.stringify(event));
    if (isEnding && options.finalSnapshot !== undefined) {
      sql.endRun.run(last.seq, last.timestamp, JSON.stringify(withoutMessages(options.finalSnapshot)), runId);
      for (const message of options.finalSnapshot.messages) {
        sql.insertMessage.run(row.session_id, runId, message.messageId, JSON.stringify(message));
      }
      sql.endSessionRun.run(runId, last.timestamp, row.session_id);
      sql.deleteLease.run(runId);
    } else {
      sql.advanceRun.run(last.seq, runId);
    }
    if (options.idempotency !== undefined) complete(options.idempotency);
    return { isAppended: true };
  };

  // Group commit: the appends of one turn of the event loop share one transaction, in order, so
  // each is fenced against the ones before it; it cuts the WAL writes per event several times.
  const queue: QueuedAppend[] = [];
  const appendBatch = db.transaction((batch: readonly QueuedAppend[]) => batch.map((item) => appendOne(...item.args)));
  const flushAppends = (): void => {
    const batch = queue.splice(0);
    let outcomes: ReturnType<typeof appendBatch>;
    try {
      outcomes = appendBatch.immediate(batch);
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    const rung = new Map<string, number>();
    outcomes.forEach((outcome, index) => {
      const item = batch[index] as QueuedAppend;
      if ('error' in outcome) {
        item.reject(outcome.error);
        return;
      }
      const [runId, expectedLastSeq, events] = item.args;
      if (outcome.isAppended) rung.set(runId, expectedLastSeq + events.length);
      item.resolve();
    });
    for (const [runId, lastSeq] of rung) doorbells.ring(runId, lastSeq);
  };

  const beginIdempotency = db.transaction((request: Parameters<AgentStorage['beginIdempotency']>[0]) => {
    const existing = sql.idempotencyRecord.get(request.recordId);
    if (existing !== undefined && existing.expires_at > request.now) {
      if (existing.fingerprint !== request.fingerprint) return { kind: 'reused' } as const;
      if (existing.state === 'completed') {
        return { kind: 'replay', response: JSON.parse(existing.response_json ?? 'null') } as const;
      }
      if ((existing.locked_until ?? 0) > request.now) return { kind: 'in_use' } as const;
    }
    sql.upsertIdempotency.run(
      request.recordId,
      request.fingerprint,
      request.token,
      request.lockedUntil,
      request.expiresAt,
    );
    return { kind: 'started' } as const;
  });

  const compactEndedRuns = db.transaction((endedBefore: number, limit: number) => {
    const runIds = sql.runsToCompact.all(endedBefore, limit).map((row) => row.run_id);
    for (const runId of runIds) {
      sql.deleteEvents.run(runId);
      sql.markCompacted.run(runId);
    }
    return runIds.length;
  });

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
  const enforceRetention = db.transaction((request: RetentionRequest) => {
    const { touched } = request;
    const deleted = { sessionIds: [] as string[], runIds: [] as string[] };
    const keep = touched?.sessionId ?? '';
    if (touched !== undefined) {
      const own = sql.runIdsOfSession.all(touched.sessionId).map((row) => row.run_id);
      for (const runId of own.slice(0, Math.max(0, own.length - Math.max(1, request.maxRunsPerSession)))) {
        deleteRun(runId);
        deleted.runIds.push(runId);
      }
      const excess = (sql.subjectSessionCount.get(touched.subjectId)?.count ?? 0) - request.maxSessionsPerSubject;
      if (excess > 0) {
        for (const row of sql.evictableOfSubject.all(touched.subjectId, keep).slice(0, excess)) {
          deleteSession(row.session_id, deleted);
        }
      }
    }
    const counts = (): { sessions: number; runs: number } => sql.counts.get() as { sessions: number; runs: number };
    // Past the store caps only sessions idle for the protection window go, oldest first.
    const protectedFrom = request.now - request.protectActiveSessionsMs;
    for (;;) {
      const { sessions, runs } = counts();
      if (sessions <= request.maxSessions && runs <= request.maxRuns) break;
      const row = sql.evictableByActivity.get(keep, protectedFrom);
      if (row === undefined) break;
      deleteSession(row.session_id, deleted);
    }
    if (touched === undefined) {
      for (const row of sql.evictableByActivity.all(keep, request.now - request.sessionIdleTtlMs)) {
        deleteSession(row.session_id, deleted);
      }
    }
    return deleted;
  });

  const updateSessionTitle = db.transaction(
    (request: Parameters<AgentStorage['updateSessionTitle']>[0]): TitleUpdateOutcome => {
      const row = sql.session.get(request.sessionId);
      if (row === undefined || row.subject_id !== request.subjectId) return { kind: 'not_found' };
      if (request.expectedTitle !== undefined && row.title !== request.expectedTitle) return { kind: 'title_changed' };
      sql.setSessionTitle.run(request.title, request.sessionId);
      return { kind: 'updated', session: { ...toSession(row), title: request.title } };
    },
  );
  const showBranch = db.transaction((request: Parameters<AgentStorage['showBranch']>[0]): ShowBranchOutcome => {
    const row = sql.session.get(request.sessionId);
    if (row === undefined || row.subject_id !== request.subjectId) return { kind: 'not_found' };
    if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id };
    for (const runId of request.leave) sql.setRunInHistory.run(0, request.sessionId, runId);
    for (const runId of request.enter) sql.setRunInHistory.run(1, request.sessionId, runId);
    return { kind: 'shown', session: toSession(row) };
  });
  const deleteOwnSession = db.transaction(
    (request: Parameters<AgentStorage['deleteSession']>[0]): DeleteSessionOutcome => {
      const row = sql.session.get(request.sessionId);
      if (row === undefined || row.subject_id !== request.subjectId) return { kind: 'not_found' };
      if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id };
      const deleted = { sessionIds: [] as string[], runIds: [] as string[] };
      deleteSession(request.sessionId, deleted);
      return { kind: 'deleted', runIds: deleted.runIds };
    },
  );

  const writeReadinessMark = db.transaction((value: string) => sql.upsertSetting.run('readiness_mark', value));
  const getOrCreateSetting = db.transaction((name: string, proposed: string) => {
    sql.insertSetting.run(name, proposed);
    return (sql.setting.get(name) as { value: string }).value;
  });

  return {
    async createRun(command) {
      const outcome = createRun.immediate(command);
      if (outcome.kind === 'created') doorbells.ring(command.run.runId, 1);
      return outcome;
    },
    async getRun(runId) {
      const row = sql.run.get(runId);
      return row === undefined ? null : toRun(row);
    },
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
    appendEvents(runId, expectedLastSeq, events, options) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ args: [runId, expectedLastSeq, events, options], resolve, reject });
        if (queue.length === 1) setImmediate(() => (db.open ? flushAppends() : undefined));
      });
    },
    async readEvents(runId, afterSeq, limit) {
      return sql.events.all(runId, afterSeq, limit ?? -1).map((row) => JSON.parse(row.envelope_json) as EventEnvelope);
    },
    subscribe: (runId, onWake) => doorbells.subscribe(runId, onWake),
    async compactEndedRuns(endedBefore, limit) {
      return compactEndedRuns.immediate(endedBefore, limit);
    },
    async enforceRetention(request) {
      return enforceRetention.immediate(request);
    },
    async checkSessionRoom(request) {
      const room = roomUnderCaps(request, sql.counts.get() as { sessions: number; runs: number });
      if (room.kind === 'room') return room;
      const evictable = sql.evictableByActivity.get('', request.now - request.protectActiveSessionsMs);
      return evictable === undefined ? room : { kind: 'room' };
    },
    async beginIdempotency(request) {
      return beginIdempotency.immediate(request);
    },
    async completeIdempotency(completion) {
      return db
        .transaction(() => {
          if (!holdsLock(completion)) return false;
          complete(completion);
          return true;
        })
        .immediate();
    },
    async abandonIdempotency(recordId, token) {
      sql.abandonIdempotency.run(recordId, token);
    },
    async deleteExpiredIdempotency(now) {
      return sql.deleteExpiredIdempotency.run(now).changes;
    },
    async renewLease(runId, owner, expiresAt) {
      return sql.renewLease.run(expiresAt, runId, owner).changes === 1;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      return sql.takeExpiredLease.run(owner, expiresAt, runId, now, runId).changes === 1;
    },
    async listExpiredLeases(now, limit) {
      return sql.expiredLeases
        .all(now, limit)
        .map((row) => ({ runId: row.run_id, owner: row.owner, expiresAt: row.expires_at }));
    },
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
    async putFeedback(feedback) {
      const { runId, subjectId, messageId, rating, comment, updatedAt } = feedback;
      return sql.putFeedback.run(subjectId, messageId, rating, comment, updatedAt, runId).changes > 0;
    },
    async listFeedback(runId, subjectId) {
      return sql.feedbackOfSubject.all(runId, subjectId).map((row) => ({
        runId: row.run_id,
        messageId: row.message_id,
        subjectId: row.subject_id,
        rating: row.rating,
        comment: row.comment,
        updatedAt: row.updated_at,
      }));
    },
    async counts() {
      return sql.counts.get() as { sessions: number; runs: number };
    },
    async getOrCreateSetting(name, proposed) {
      return getOrCreateSetting.immediate(name, proposed);
    },
    async checkReady() {
      // A write that commits proves the file is open, writable and not locked out.
      writeReadinessMark.immediate(String(Date.now()));
    },
    async close() {
      if (!db.open) return;
      if (queue.length > 0) flushAppends();
      db.close();
    },
  };
}

/** An append waiting for the next group commit. */
interface QueuedAppend {
  args: [runId: string, expectedLastSeq: number, events: readonly EventEnvelope[], options: AppendOptions | undefined];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Loads `better-sqlite3` when a SQLite storage is opened, not when the server module is imported:
 * it is an optional peer dependency, so a product on another storage never needs the native addon.
 */
function loadBetterSqlite3(): typeof BetterSqlite3 {
  return requireOptionalPeer<typeof BetterSqlite3>('better-sqlite3', 'SQLite storage');
}

function toSession(row: SessionRow): StoredSession {
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
