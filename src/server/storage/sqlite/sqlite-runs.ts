import type { EventEnvelope, RunSnapshot, SnapshotMessage } from '../../../core/protocol.ts';
import type { RunRow } from '../sqlite-statements.ts';
import type { RunStorage, StoredRun, StoredSession } from '../storage-port.ts';
import type { SqliteAppends } from './sqlite-appends.ts';
import type { SqliteContext } from './sqlite-context.ts';
import { completeIdempotencyRecord, holdsIdempotencyLock } from './sqlite-idempotency.ts';
import { toSession } from './sqlite-sessions.ts';

/**
 * The runs and events role of the SQLite store: a create is one immediate transaction, appends go
 * through the group commit (`appends`), and the doorbell is in-process.
 */
export function createSqliteRunStorage(context: SqliteContext, appends: SqliteAppends): RunStorage {
  const { db, sql, doorbells } = context;
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

  const createRun = db.transaction((command: Parameters<RunStorage['createRun']>[0]) => {
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
    if (command.idempotency !== undefined && !holdsIdempotencyLock(sql, command.idempotency)) {
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
    if (command.idempotency !== undefined) completeIdempotencyRecord(sql, command.idempotency);
    return { kind: 'created', session: updated } as const;
  });

  const compactEndedRuns = db.transaction((endedBefore: number, limit: number) => {
    const runIds = sql.runsToCompact.all(endedBefore, limit).map((row) => row.run_id);
    for (const runId of runIds) {
      sql.deleteEvents.run(runId);
      sql.markCompacted.run(runId);
    }
    return runIds.length;
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
    appendEvents: appends.appendEvents,
    async readEvents(runId, afterSeq, limit) {
      return sql.events.all(runId, afterSeq, limit ?? -1).map((row) => JSON.parse(row.envelope_json) as EventEnvelope);
    },
    subscribe: (runId, onWake) => doorbells.subscribe(runId, onWake),
    async compactEndedRuns(endedBefore, limit) {
      return compactEndedRuns.immediate(endedBefore, limit);
    },
  };
}
