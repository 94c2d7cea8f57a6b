import type { EventEnvelope } from '../../../core/protocol.ts';
import { EventLogConflictError } from '../../runs/event-log.ts';
import { RunClosedError } from '../../runs/run-handle.ts';
import { checkAppendBatch, withoutMessages } from '../append-rules.ts';
import { IdempotencyLockLostError } from '../storage-port.ts';
import type { AppendOptions, RunStorage } from '../storage-port.ts';
import type { SqliteContext } from './sqlite-context.ts';
import { completeIdempotencyRecord, holdsIdempotencyLock } from './sqlite-idempotency.ts';

/** The group commit of a SQLite store's appends. */
export interface SqliteAppends {
  /** Queues an append for the next group commit; settles once it committed or was refused. */
  appendEvents: RunStorage['appendEvents'];
  /** Commits the queued appends now, if any (before the database closes). */
  flushPending(): void;
}

/**
 * Creates the group commit: the appends of one turn of the event loop share one transaction, in
 * order, so each is fenced against the ones before it; it cuts the WAL writes per event several
 * times. The doorbells ring once the transaction committed.
 */
export function createSqliteAppends({ db, sql, doorbells }: SqliteContext): SqliteAppends {
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
      if (options.idempotency !== undefined && !holdsIdempotencyLock(sql, options.idempotency)) {
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
    if (options.idempotency !== undefined) completeIdempotencyRecord(sql, options.idempotency);
    return { isAppended: true };
  };

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

  return {
    appendEvents(runId, expectedLastSeq, events, options) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ args: [runId, expectedLastSeq, events, options], resolve, reject });
        if (queue.length === 1) setImmediate(() => (db.open ? flushAppends() : undefined));
      });
    },
    flushPending() {
      if (queue.length > 0) flushAppends();
    },
  };
}

/** An append waiting for the next group commit. */
interface QueuedAppend {
  args: [runId: string, expectedLastSeq: number, events: readonly EventEnvelope[], options: AppendOptions | undefined];
  resolve: () => void;
  reject: (error: unknown) => void;
}
