import type { EventEnvelope, RunSnapshot, SnapshotMessage } from '../../../core/protocol.ts';
import type { AgentStorage, StoredRun, StoredSession } from '../storage-port.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';
import { completeIdempotencyRecord, holdsIdempotencyLock } from './postgres-idempotency.ts';
import type { SessionRow } from './postgres-sessions.ts';
import { toSession } from './postgres-sessions.ts';

/** The runs and event logs role of the Postgres storage (appends: `postgres-appends.ts`). */
export type PostgresRuns = Pick<
  AgentStorage,
  'createRun' | 'getRun' | 'readEvents' | 'compactEndedRuns' | 'countActiveRuns'
>;

interface RunRow {
  run_id: string;
  session_id: string;
  subject_id: string;
  user_message_id: string;
  created_at: number;
  start_json: string;
  first_seq: number;
  last_seq: number;
  ended_at: number | null;
  final_snapshot_json: string | null;
  is_compacted: boolean;
}

/**
 * Runs and their logs: a create is one transaction that locks the session row first (`FOR
 * UPDATE`), so creates from any number of processes are fenced as on one, and `ring(sql, runId,
 * lastSeq)` (a `NOTIFY`, delivered at commit) wakes the tails of every process.
 */
export function createPostgresRuns(
  connection: PostgresConnection,
  ring: (sql: RunSql, runId: string, lastSeq: number) => Promise<void>,
): PostgresRuns {
  const { s, transaction, query } = connection;
  const messagesOfRun = async (runId: string): Promise<SnapshotMessage[]> =>
    (
      await query<{ message_json: string }>(
        `SELECT message_json FROM ${s}.messages WHERE run_id = $1 ORDER BY position`,
        [runId],
      )
    ).rows.map((row) => JSON.parse(row.message_json) as SnapshotMessage);

  return {
    createRun: (command) =>
      transaction(async (sql) => {
        let session: StoredSession;
        if (command.session.kind === 'new') {
          session = command.session.session;
        } else {
          const { rows } = await sql<SessionRow>(`SELECT * FROM ${s}.sessions WHERE session_id = $1 FOR UPDATE`, [
            command.session.sessionId,
          ]);
          const row = rows[0];
          if (row === undefined || row.subject_id !== command.run.subjectId)
            return { kind: 'session_not_found' } as const;
          if (row.agent_version_id !== command.started.data.agent.versionId) {
            return { kind: 'version_mismatch', agentVersionId: row.agent_version_id } as const;
          }
          if (row.active_run_id !== null) return { kind: 'run_active', activeRunId: row.active_run_id } as const;
          session = toSession(row);
        }
        const { replacesRunId, run } = command;
        if (replacesRunId !== undefined && session.lastRunId !== replacesRunId)
          return { kind: 'not_latest_run' } as const;
        if (command.idempotency !== undefined && !(await holdsIdempotencyLock(sql, s, command.idempotency))) {
          return { kind: 'idempotency_lost' } as const;
        }
        const leaving = [...(replacesRunId === undefined ? [] : [replacesRunId]), ...(command.leavesHistory ?? [])];
        if (leaving.length > 0) {
          await sql(`UPDATE ${s}.messages SET in_history = false WHERE session_id = $1 AND run_id = ANY($2)`, [
            session.sessionId,
            leaving,
          ]);
        }
        const updated: StoredSession = {
          ...session,
          activeRunId: run.runId,
          lastRunId: run.runId,
          updatedAt: run.createdAt,
          title: session.title ?? command.title,
        };
        if (command.session.kind === 'new') {
          await sql(
            `INSERT INTO ${s}.sessions (session_id, subject_id, agent_version_id, title, created_at, updated_at,
               active_run_id, last_run_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [
              updated.sessionId,
              updated.subjectId,
              updated.agentVersionId,
              updated.title,
              updated.createdAt,
              updated.updatedAt,
              updated.activeRunId,
              updated.lastRunId,
            ],
          );
        } else {
          await sql(
            `UPDATE ${s}.sessions SET active_run_id = $1, last_run_id = $1, updated_at = $2, title = $3
             WHERE session_id = $4`,
            [run.runId, run.createdAt, updated.title, updated.sessionId],
          );
        }
        await sql(
          `INSERT INTO ${s}.runs (run_id, session_id, subject_id, user_message_id, created_at, start_json)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [run.runId, run.sessionId, run.subjectId, run.userMessageId, run.createdAt, JSON.stringify(run.start)],
        );
        await sql(`INSERT INTO ${s}.events (run_id, seq, envelope_json) VALUES ($1, 1, $2)`, [
          run.runId,
          JSON.stringify(command.started),
        ]);
        await sql(`INSERT INTO ${s}.leases (run_id, owner, expires_at) VALUES ($1, $2, $3)`, [
          run.runId,
          command.lease.owner,
          command.lease.expiresAt,
        ]);
        if (command.idempotency !== undefined) await completeIdempotencyRecord(sql, s, command.idempotency);
        await ring(sql, run.runId, 1);
        return { kind: 'created', session: updated } as const;
      }),

    async getRun(runId) {
      const row = (await query<RunRow>(`SELECT * FROM ${s}.runs WHERE run_id = $1`, [runId])).rows[0];
      if (row === undefined) return null;
      const stripped = row.final_snapshot_json === null ? null : (JSON.parse(row.final_snapshot_json) as RunSnapshot);
      const run: StoredRun = {
        runId: row.run_id,
        sessionId: row.session_id,
        subjectId: row.subject_id,
        userMessageId: row.user_message_id,
        createdAt: row.created_at,
        start: JSON.parse(row.start_json) as StoredRun['start'],
        firstSeq: row.first_seq,
        lastSeq: row.last_seq,
        endedAt: row.ended_at,
        finalSnapshot: stripped === null ? null : { ...stripped, messages: await messagesOfRun(row.run_id) },
        isCompacted: row.is_compacted,
      };
      return run;
    },

    async readEvents(runId, afterSeq, limit) {
      const { rows } = await query<{ envelope_json: string }>(
        `SELECT envelope_json FROM ${s}.events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [runId, afterSeq, limit ?? null],
      );
      return rows.map((row) => JSON.parse(row.envelope_json) as EventEnvelope);
    },

    compactEndedRuns: (endedBefore, limit) =>
      transaction(async (sql) => {
        const { rows } = await sql<{ run_id: string }>(
          `UPDATE ${s}.runs SET is_compacted = true, first_seq = last_seq + 1 WHERE run_id IN (
             SELECT run_id FROM ${s}.runs WHERE ended_at IS NOT NULL AND NOT is_compacted AND ended_at < $1
             ORDER BY ended_at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING run_id`,
          [endedBefore, limit],
        );
        const runIds = rows.map((row) => row.run_id);
        if (runIds.length > 0) await sql(`DELETE FROM ${s}.events WHERE run_id = ANY($1)`, [runIds]);
        return runIds.length;
      }),

    async countActiveRuns(subjectId) {
      const { rows } = await query<{ count: number }>(
        `SELECT COUNT(*) AS count FROM ${s}.runs WHERE subject_id = $1 AND ended_at IS NULL`,
        [subjectId],
      );
      return rows[0]?.count ?? 0;
    },
  };
}
