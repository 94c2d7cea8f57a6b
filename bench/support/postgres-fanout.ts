import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { startPostgresServer } from '../../test/support/postgres-server.ts';
import { createFanoutRuns, measureFanout } from './run-fanout.ts';
import { spawnFanoutServer, stopChild } from './two-process-fanout.ts';

/** What the Postgres fan-out measured, with the statements Postgres ran in its delivery window. */
export interface PostgresFanoutResult {
  delivered: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Statements sent by the processes (one round trip each; BEGIN and COMMIT included), by kind: calls and execution ms. */
  statements: Map<string, { calls: number; ms: number }>;
  /** The `NOTIFY`s (`pg_notify`, inside `append_events` or a transaction): calls and execution ms. */
  notify: { calls: number; ms: number };
  /** CPU seconds the Postgres server processes used in the window (`/proc`, 0 where there is none). */
  serverCpuSeconds: number;
}

/**
 * Runs the fan-out across two server processes on one private Postgres (`DATABASE_URL`), as
 * `runTwoProcessFanout` does on Redis: half the runs are produced by each process and read on the
 * other, so every delivered event crosses Postgres (an append's `NOTIFY`, the reader's `LISTEN`
 * and its read from the cursor). Postgres records its statements with `pg_stat_statements`.
 */
export async function runPostgresFanout(options: {
  runs: number;
  deltas: number;
  intervalMs: number;
  /** The pool size of each server process (default the storage's, 10). */
  connections?: number;
}): Promise<PostgresFanoutResult> {
  const { runs, deltas, intervalMs } = options;
  const server = await startPostgresServer({
    extraArgs: [
      '-c',
      'shared_preload_libraries=pg_stat_statements',
      '-c',
      'pg_stat_statements.track=all',
      '-c',
      'pg_stat_statements.track_utility=on',
    ],
  });
  const children: ChildProcess[] = [];
  const admin = new pg.Client({ connectionString: server.url });
  try {
    await admin.connect();
    await admin.query('CREATE EXTENSION pg_stat_statements');
    const ports = await Promise.all(
      [0, 1].map(() =>
        spawnFanoutServer(children, {
          DATABASE_URL: server.url,
          BENCH_DELTAS: String(deltas),
          BENCH_INTERVAL_MS: String(intervalMs),
          BENCH_MAX_STREAMS: String(runs),
          BENCH_PG_CONNECTIONS: String(options.connections ?? 10),
        }),
      ),
    );
    const [baseA, baseB] = ports.map((port) => `http://127.0.0.1:${port}/api/agent/v1`) as [string, string];
    const half = Math.floor(runs / 2);
    const onA = await createFanoutRuns(baseA, half, () => undefined);
    const onB = await createFanoutRuns(baseB, runs - half, () => undefined);
    let cpuBefore = 0;
    const measured = await measureFanout({
      streams: [...onA.map((runId) => ({ base: baseB, runId })), ...onB.map((runId) => ({ base: baseA, runId }))],
      release: async () => {
        await admin.query('SELECT pg_stat_statements_reset()');
        cpuBefore = await readServerCpuSeconds(admin);
        await Promise.all(ports.map((port) => fetch(`http://127.0.0.1:${port}/bench/go`, { method: 'POST' })));
      },
      expected: runs * (deltas + 4),
    });
    const serverCpuSeconds = (await readServerCpuSeconds(admin)) - cpuBefore;
    const { rows } = await admin.query<{ query: string; calls: string; ms: number; toplevel: boolean }>(
      'SELECT query, calls, total_exec_time AS ms, toplevel FROM pg_stat_statements',
    );
    const statements = new Map<string, { calls: number; ms: number }>();
    const notify = { calls: 0, ms: 0 };
    for (const row of rows) {
      if (/pg_notify/i.test(row.query) && !/append_events/i.test(row.query)) {
        notify.calls += Number(row.calls);
        notify.ms += row.ms;
      }
      if (!row.toplevel) continue;
      const kind = kindOf(row.query);
      const total = statements.get(kind) ?? { calls: 0, ms: 0 };
      statements.set(kind, { calls: total.calls + Number(row.calls), ms: total.ms + row.ms });
    }
    return { ...measured, statements, notify, serverCpuSeconds };
  } finally {
    await admin.end().catch(() => undefined);
    await Promise.all(children.map(stopChild));
    await server.stop();
  }
}

/** A statement's kind: its first words, tables and functions named, values left out. */
function kindOf(query: string): string {
  const text = query.replace(/\s+/g, ' ').trim();
  if (/append_events/i.test(text)) return 'append_events()';
  if (/pg_notify/i.test(text)) return 'NOTIFY (pg_notify)';
  if (/^(BEGIN|COMMIT|ROLLBACK)/i.test(text)) return text.split(' ')[0]?.toUpperCase() ?? text;
  const table = /(?:FROM|INTO|UPDATE) "?[a-z_]+"?\.([a-z_]+)/i.exec(text)?.[1] ?? '';
  return `${text.split(' ')[0]?.toUpperCase()} ${table}`.trim();
}

/** CPU seconds of every Postgres backend process so far, read from `/proc` (Linux). */
async function readServerCpuSeconds(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity');
  const { readFile } = await import('node:fs/promises');
  let ticks = 0;
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks / 100;
}
