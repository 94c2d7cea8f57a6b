import type { EventEnvelope, RunSnapshot } from '../../../core/protocol.ts';
import { EventLogConflictError } from '../../runs/event-log.ts';
import { RunClosedError } from '../../runs/run-handle.ts';
import { checkAppendBatch, withoutMessages } from '../append-rules.ts';
import { IdempotencyLockLostError } from '../storage-port.ts';
import type { AgentStorage } from '../storage-port.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';
import { CommitOutcomeUnknownError } from './postgres-connection.ts';
import { completeIdempotencyRecord, holdsIdempotencyLock } from './postgres-idempotency.ts';

/**
 * Appends to run logs (`AgentStorage.appendEvents`), fenced by the run row's lock: a batch that
 * neither ends the run nor completes an idempotency record is one call of the schema's
 * `append_events`; the others one transaction that also stores the final snapshot and settled
 * messages. `ring` sends the `NOTIFY` inside the transaction. When the connection broke after the
 * write was sent (a Postgres restart), the log tells whether it committed: the batch's first event
 * there as sent is success, nothing there is a retry, another writer's event a conflict.
 */
export function createPostgresAppends(
  connection: PostgresConnection,
  ring: (sql: RunSql, runId: string, lastSeq: number) => Promise<void>,
): AgentStorage['appendEvents'] {
  const { s, transaction, query } = connection;
  const appendOnce: AgentStorage['appendEvents'] = async (runId, expectedLastSeq, events, options = {}) => {
    const isEnding = checkAppendBatch(runId, expectedLastSeq, events, options);
    const last = events[events.length - 1];
    if (!isEnding && options.idempotency === undefined && last !== undefined) {
      // The common case (a delta, a status) in one round trip: the schema's append_events.
      const { rows } = await connection.writeOnce<{ outcome: string }>(
        `SELECT ${s}.append_events($1, $2, $3, $4, $5) AS outcome`,
        [
          runId,
          expectedLastSeq,
          events.map((event) => event.seq),
          events.map((event) => JSON.stringify(event)),
          connection.schema,
        ],
      );
      const outcome = rows[0]?.outcome ?? 'missing';
      if (outcome === 'missing') throw new RangeError(`Run ${runId} does not exist.`);
      if (outcome === 'closed') throw new RunClosedError(runId);
      if (outcome.startsWith('conflict:')) {
        throw new EventLogConflictError(runId, expectedLastSeq, Number(outcome.slice('conflict:'.length)));
      }
      return;
    }
    await transaction(async (sql) => {
      const { rows } = await sql<{ session_id: string; last_seq: number; ended_at: number | null }>(
        `SELECT session_id, last_seq, ended_at FROM ${s}.runs WHERE run_id = $1 FOR UPDATE`,
        [runId],
      );
      const row = rows[0];
      if (row === undefined) throw new RangeError(`Run ${runId} does not exist.`);
      if (row.ended_at !== null) throw new RunClosedError(runId);
      if (row.last_seq !== expectedLastSeq) throw new EventLogConflictError(runId, expectedLastSeq, row.last_seq);
      if (options.idempotency !== undefined && !(await holdsIdempotencyLock(sql, s, options.idempotency))) {
        throw new IdempotencyLockLostError(options.idempotency.recordId);
      }
      if (last === undefined) return;
      await sql(
        `INSERT INTO ${s}.events (run_id, seq, envelope_json)
         SELECT $1, seq, envelope FROM unnest($2::integer[], $3::text[]) AS batch (seq, envelope)`,
        [runId, events.map((event) => event.seq), events.map((event) => JSON.stringify(event))],
      );
      if (isEnding && options.finalSnapshot !== undefined) {
        await endRun(sql, s, { runId, sessionId: row.session_id, last, snapshot: options.finalSnapshot });
      } else {
        await sql(`UPDATE ${s}.runs SET last_seq = $1 WHERE run_id = $2`, [last.seq, runId]);
      }
      if (options.idempotency !== undefined) await completeIdempotencyRecord(sql, s, options.idempotency);
      await ring(sql, runId, last.seq);
    });
  };

  const settleUncertain = async (
    runId: string,
    expectedLastSeq: number,
    first: EventEnvelope,
  ): Promise<'appended' | 'absent'> => {
    const { rows } = await query<{ envelope_json: string }>(
      `SELECT envelope_json FROM ${s}.events WHERE run_id = $1 AND seq = $2`,
      [runId, first.seq],
    );
    if (rows[0] === undefined) return 'absent';
    if (rows[0].envelope_json === JSON.stringify(first)) return 'appended';
    const found = await query<{ last_seq: number }>(`SELECT last_seq FROM ${s}.runs WHERE run_id = $1`, [runId]);
    throw new EventLogConflictError(runId, expectedLastSeq, found.rows[0]?.last_seq ?? first.seq);
  };

  return async (runId, expectedLastSeq, events, options) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await appendOnce(runId, expectedLastSeq, events, options);
        return;
      } catch (error) {
        const first = events[0];
        if (!(error instanceof CommitOutcomeUnknownError) || first === undefined || attempt >= 3) throw error;
        if ((await settleUncertain(runId, expectedLastSeq, first)) === 'appended') return;
      }
    }
  };
}

/** The terminal append's writes: the final snapshot, the settled messages, the session's slot and the lease. */
async function endRun(
  sql: RunSql,
  s: string,
  ending: { runId: string; sessionId: string; last: EventEnvelope; snapshot: RunSnapshot },
): Promise<void> {
  const { runId, sessionId, last, snapshot } = ending;
  await sql(`UPDATE ${s}.runs SET last_seq = $1, ended_at = $2, final_snapshot_json = $3 WHERE run_id = $4`, [
    last.seq,
    last.timestamp,
    JSON.stringify(withoutMessages(snapshot)),
    runId,
  ]);
  if (snapshot.messages.length > 0) {
    await sql(
      `INSERT INTO ${s}.messages (session_id, run_id, message_id, role, message_json)
       SELECT $1, $2, id, role, body FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY
         AS settled (id, role, body, n) ORDER BY n`,
      [
        sessionId,
        runId,
        snapshot.messages.map((message) => message.messageId),
        snapshot.messages.map((message) => message.role),
        snapshot.messages.map((message) => JSON.stringify(message)),
      ],
    );
  }
  await sql(
    `UPDATE ${s}.sessions SET active_run_id = NULLIF(active_run_id, $1), updated_at = $2 WHERE session_id = $3`,
    [runId, last.timestamp, sessionId],
  );
  await sql(`DELETE FROM ${s}.leases WHERE run_id = $1`, [runId]);
}
