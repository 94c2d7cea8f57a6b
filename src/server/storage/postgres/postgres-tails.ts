import type { PoolClient } from 'pg';
import { createDoorbells } from '../doorbells.ts';
import type { PostgresConnection, RunSql } from './postgres-connection.ts';

/** The live tails of one process on Postgres: doorbells rung by `NOTIFY` from every process. */
export interface PostgresTails {
  /** Calls `onWake(lastSeq)` after appends to the run from any process. Returns the unsubscribe. */
  subscribe(runId: string, onWake: (lastSeq: number) => void): () => void;
  /** Inside the appending transaction: tells every process (at commit) the seq the run's log reached. */
  notify(sql: RunSql, runId: string, lastSeq: number): Promise<void>;
  /** After this process's own commit: rings its tails at once, without waiting for the notification. */
  heard(runId: string, lastSeq: number): void;
  close(): Promise<void>;
}

/** How often a process with live tails checks their logs and its listening connection. */
export const TAIL_SWEEP_MS = 1_000;

/**
 * Tails over `LISTEN`/`NOTIFY` on the schema's channel: one connection per process listens while
 * from its first tail on. A notification carries `<lastSeq>:<runId>`; readers re-read the
 * log from their cursor on every ring, so a lost notification loses nothing. Once a second while
 * tails exist (never faster) one query reads their logs' last seqs, ringing any that moved past
 * what was heard and proving the listening connection alive; a lost connection is opened again
 * with backoff, and every tail rings once it listens again.
 */
export function createPostgresTails(
  connection: PostgresConnection,
  options: { onError: (error: unknown) => void },
): PostgresTails {
  const { pool, s, schema } = connection;
  const doorbells = createDoorbells();
  const heardSeq = new Map<string, number>();
  const subscribers = new Map<string, number>();
  let listener: PoolClient | null = null;
  let connecting: Promise<void> | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let isClosed = false;

  const ring = (runId: string, lastSeq: number): void => {
    if (!heardSeq.has(runId) || (heardSeq.get(runId) as number) >= lastSeq) return;
    heardSeq.set(runId, lastSeq);
    doorbells.ring(runId, lastSeq);
  };
  const onNotification = (message: { channel: string; payload?: string }): void => {
    const match = /^([0-9]+):(.+)$/s.exec(message.payload ?? '');
    if (message.channel === schema && match !== null) ring(match[2] as string, Number(match[1]));
  };
  const sweep = async (): Promise<void> => {
    const client = listener;
    if (client === null || heardSeq.size === 0) return;
    const { rows } = await client.query<{ run_id: string; last_seq: number }>(
      `SELECT run_id, last_seq FROM ${s}.runs WHERE run_id = ANY($1)`,
      [[...heardSeq.keys()]],
    );
    for (const row of rows) ring(row.run_id, Number(row.last_seq));
  };
  const drop = (client: PoolClient, error: unknown): void => {
    if (listener !== client) return;
    listener = null;
    client.off('notification', onNotification);
    client.release(error instanceof Error ? error : true);
    if (!isClosed && heardSeq.size > 0) void listen();
  };
  const listen = (): Promise<void> => {
    connecting ??= (async () => {
      for (let delay = 100; !isClosed && heardSeq.size > 0; delay = Math.min(delay * 2, 5_000)) {
        try {
          const client = await pool.connect();
          client.on('notification', onNotification);
          client.on('error', (error) => drop(client, error));
          client.on('end', () => drop(client, new Error('The Postgres listening connection ended.')));
          listener = client;
          await client.query(`LISTEN "${schema}"`);
          // Appends may have committed while nobody listened: every tail re-reads once.
          for (const runId of heardSeq.keys()) doorbells.ring(runId, heardSeq.get(runId) as number);
          await sweep();
          return;
        } catch (error) {
          if (listener !== null) drop(listener, error);
          options.onError(error);
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    })().finally(() => (connecting = null));
    return connecting;
  };
  const scheduleSweep = (): void => {
    if (sweepTimer !== null || isClosed) return;
    sweepTimer = setTimeout(() => {
      sweepTimer = null;
      if (heardSeq.size === 0) return;
      void sweep()
        .catch((error: unknown) => {
          if (listener !== null) drop(listener, error);
        })
        .finally(scheduleSweep);
    }, TAIL_SWEEP_MS);
    sweepTimer.unref();
  };

  return {
    subscribe(runId, onWake) {
      if (!heardSeq.has(runId)) heardSeq.set(runId, 0);
      subscribers.set(runId, (subscribers.get(runId) ?? 0) + 1);
      const unsubscribe = doorbells.subscribe(runId, onWake);
      if (listener === null) void listen();
      scheduleSweep();
      let isSubscribed = true;
      return () => {
        if (!isSubscribed) return;
        isSubscribed = false;
        unsubscribe();
        const left = (subscribers.get(runId) ?? 1) - 1;
        if (left > 0) subscribers.set(runId, left);
        else {
          subscribers.delete(runId);
          heardSeq.delete(runId);
        }
      };
    },
    async notify(sql, runId, lastSeq) {
      await sql('SELECT pg_notify($1, $2)', [schema, `${lastSeq}:${runId}`]);
    },
    heard: ring,
    async close() {
      isClosed = true;
      if (sweepTimer !== null) clearTimeout(sweepTimer);
      await connecting?.catch(() => undefined);
      const client = listener;
      listener = null;
      if (client !== null) {
        client.off('notification', onNotification);
        await client.query(`UNLISTEN "${schema}"`).catch(() => undefined);
        client.release();
      }
    },
  };
}
