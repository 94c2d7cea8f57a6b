import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../src/server/storage/sqlite-storage.ts';
import { createDiscardingTracerProvider } from './support/discarding-tracer-provider.ts';
import { formatTable } from './support/format-table.ts';
import { runPostgresFanout } from './support/postgres-fanout.ts';
import { readFlag, runFanout } from './support/run-fanout.ts';
import { ROUND_TRIP_COMMANDS, runTwoProcessFanout } from './support/two-process-fanout.ts';
import type { TwoProcessFanoutResult } from './support/two-process-fanout.ts';

/** One table row: the storage, its delivered events per second, p50, p99 and round trips per event. */
function row(
  name: string,
  result: { delivered: number; seconds: number; p50: number; p99: number },
  roundTrips: string,
): string[] {
  return [
    name,
    String(Math.round(result.delivered / result.seconds)),
    `${result.p50} ms`,
    `${result.p99} ms`,
    roundTrips,
  ];
}

// `npm run bench:server-fanout -- --runs 200 --deltas 50`: N concurrent runs, one SSE reader each,
// on loopback, on the in-memory storage. Prints delivered events/s and append-to-delivery latency;
// the last line is the figure. (bench/storage-fanout.ts runs the same workload on SQLite.)
//
// `npm run bench:server-fanout -- --two-processes` (default 1,000 runs): the same workload on one
// process in memory, on one process on SQLite, then over two server processes on one private
// redis-server and on a private three-node Redis Cluster, each run produced on one process and read
// on the other, and on the cluster again with the runs spread over `--identities` subjects (default
// 100, so over the cluster's shards; 1 leaves that row out); prints them side by side with Redis
// round trips per delivered event.
//
// `npm run bench:server-fanout -- --postgres` (default 200 runs): the same workload on one process in
// memory, over two server processes on one private redis-server, and over two on one private
// Postgres (each run produced on one process and read on the other, through LISTEN/NOTIFY; each
// process's pool `--pg-connections`, default 10); prints
// them side by side with the Postgres statements per delivered event, what NOTIFY costs per
// delivered event, and the CPU time of the Postgres server per delivered event.
//
// `npm run bench:server-fanout -- --observability`: the one-process workload in one run with nothing
// observed (the OpenTelemetry API without an SDK), with `metrics: true`, and with metrics and an SDK
// recording every span (exported to nowhere), in turn `--repeat` times (default 3) after a warm-up
// run; prints each one's median events/s, latency and CPU time per delivered event (this process
// runs the readers too, the same for each), and their ratio to the unobserved run.
const isTwoProcesses = process.argv.includes('--two-processes');
const isObservability = process.argv.includes('--observability');
const isPostgres = process.argv.includes('--postgres');
const runs = readFlag('--runs', isTwoProcesses ? 1000 : 200);
const deltas = readFlag('--deltas', 50);
const intervalMs = readFlag('--interval-ms', 5);
const repeat = readFlag('--repeat', 3);
const identities = readFlag('--identities', 100);
const workload = `runs ${runs}, events per run ${deltas + 4} after the cursor, delta interval ${intervalMs} ms`;

if (isPostgres) {
  const inMemory = await runFanout({ runs, deltas, intervalMs });
  await inMemory.close();
  const onRedis = await runTwoProcessFanout({ runs, deltas, intervalMs });
  const onPostgres = await runPostgresFanout({
    runs,
    deltas,
    intervalMs,
    connections: readFlag('--pg-connections', 10),
  });
  const perEvent = (count: number): string => (count / onPostgres.delivered).toFixed(2);
  const redisRoundTrips = [...onRedis.commands]
    .filter(([name]) => ROUND_TRIP_COMMANDS.has(name))
    .reduce((total, [, calls]) => total + calls, 0);
  const statements = [...onPostgres.statements].sort(([, a], [, b]) => b.calls - a.calls);
  const totalStatements = statements.reduce((total, [, kind]) => total + kind.calls, 0);
  const { notify } = onPostgres;
  console.log(workload);
  console.log(
    formatTable(
      ['storage', 'events/s', 'p50', 'p99', 'round trips per event'],
      [
        row('memory, one process', inMemory, '—'),
        row('Redis, two processes', onRedis, (redisRoundTrips / onRedis.delivered).toFixed(2)),
        row('Postgres, two processes', onPostgres, perEvent(totalStatements)),
      ],
    ),
  );
  console.log(
    `Postgres statements per delivered event: ${statements
      .filter(([, kind]) => kind.calls > 0)
      .map(([name, kind]) => `${name} ${perEvent(kind.calls)}`)
      .join(', ')}`,
  );
  const notifyUs = (notify.ms * 1000) / onPostgres.delivered;
  const cpuUs = (onPostgres.serverCpuSeconds * 1e6) / onPostgres.delivered;
  console.log(
    `server-fanout postgres: ${runs} SSE readers over two processes, p50 ${onPostgres.p50} ms, p99 ${onPostgres.p99} ms (${(onPostgres.p99 / inMemory.p99).toFixed(2)}× memory; Redis p99 ${onRedis.p99} ms), ${perEvent(totalStatements)} statements per delivered event; NOTIFY ${perEvent(notify.calls)} calls and ${notifyUs.toFixed(1)} µs of execution per delivered event; Postgres CPU ${cpuUs.toFixed(0)} µs per delivered event`,
  );
} else if (isObservability) {
  const tracing = createDiscardingTracerProvider();
  const variants = [
    { name: 'nothing observed', observability: {} },
    { name: 'metrics', observability: { metrics: true } },
    { name: 'metrics + traces (SDK)', observability: { metrics: true, tracerProvider: tracing.provider } },
  ];
  const samples = variants.map(() => [] as { perSecond: number; p50: number; p99: number; cpuUs: number }[]);
  // One warm-up run (JIT, sockets), then the variants in turn `repeat` times, so load drifts hit each alike.
  await (await runFanout({ runs, deltas, intervalMs })).close();
  for (let round = 0; round < repeat; round += 1) {
    for (const [index, variant] of variants.entries()) {
      const cpu = process.cpuUsage();
      const result = await runFanout({ runs, deltas, intervalMs, observability: variant.observability });
      const used = process.cpuUsage(cpu);
      await result.close();
      samples[index]?.push({
        perSecond: result.delivered / result.seconds,
        p50: result.p50,
        p99: result.p99,
        cpuUs: (used.user + used.system) / result.delivered,
      });
    }
  }
  await tracing.provider.forceFlush();
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const rows = variants.map((variant, index) => {
    const runsOf = samples[index] ?? [];
    return {
      name: variant.name,
      perSecond: median(runsOf.map((sample) => sample.perSecond)),
      all: runsOf.map((sample) => Math.round(sample.perSecond)).join(', '),
      p50: median(runsOf.map((sample) => sample.p50)),
      p99: median(runsOf.map((sample) => sample.p99)),
      cpuUs: median(runsOf.map((sample) => sample.cpuUs)),
    };
  });
  const baseline = rows[0]?.perSecond ?? 0;
  const ratio = (index: number): string => ((rows[index]?.perSecond ?? 0) / baseline).toFixed(2);
  const cpuRatio = (index: number): string => ((rows[index]?.cpuUs ?? 0) / (rows[0]?.cpuUs ?? 1)).toFixed(2);
  console.log(`${workload}, each variant ${repeat} times in turn (medians)`);
  console.log(
    formatTable(
      ['handler', 'events/s', 'vs unobserved', 'CPU µs/event', 'vs unobserved', 'p50', 'p99', 'events/s of each run'],
      rows.map((row, index) => [
        row.name,
        String(Math.round(row.perSecond)),
        `${ratio(index)}×`,
        row.cpuUs.toFixed(0),
        `${cpuRatio(index)}×`,
        `${row.p50} ms`,
        `${row.p99} ms`,
        row.all,
      ]),
    ),
  );
  console.log(
    `server-fanout observability: ${Math.round(baseline)} events/s unobserved, metrics ${ratio(1)}× (CPU per event ${cpuRatio(1)}×), metrics + traces ${ratio(2)}× (CPU ${cpuRatio(2)}×; ${tracing.exported()} spans recorded)`,
  );
} else if (!isTwoProcesses) {
  const result = await runFanout({ runs, deltas, intervalMs });
  await result.close();
  console.log(workload);
  console.log(`delivered ${result.delivered} events in ${result.seconds.toFixed(2)} s`);
  console.log(`append-to-delivery latency p50 ${result.p50} ms, p99 ${result.p99} ms`);
  console.log(
    `server-fanout: ${Math.round(result.delivered / result.seconds)} events/s to ${runs} SSE readers, p50 ${result.p50} ms, p99 ${result.p99} ms`,
  );
} else {
  const inMemory = await runFanout({ runs, deltas, intervalMs });
  await inMemory.close();
  const folder = await mkdtemp(join(tmpdir(), 'agent-chat-bench-'));
  const sqlite = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
  const onSqlite = await runFanout({ storage: sqlite, runs, deltas, intervalMs });
  await onSqlite.close();
  await sqlite.close();
  await rm(folder, { recursive: true, force: true });
  const onRedis = await runTwoProcessFanout({ runs, deltas, intervalMs });
  const onCluster = await runTwoProcessFanout({ runs, deltas, intervalMs, isCluster: true });
  const spread =
    identities > 1 ? await runTwoProcessFanout({ runs, deltas, intervalMs, isCluster: true, identities }) : null;

  const sumOf = (result: TwoProcessFanoutResult, names: (name: string) => boolean): number =>
    [...result.commands].filter(([name]) => names(name)).reduce((total, [, calls]) => total + calls, 0);
  const perEventOf = (result: TwoProcessFanoutResult, calls: number): string => (calls / result.delivered).toFixed(2);
  const roundTripsOf = (result: TwoProcessFanoutResult): string =>
    perEventOf(
      result,
      sumOf(result, (name) => ROUND_TRIP_COMMANDS.has(name)),
    );
  const sum = (names: (name: string) => boolean): number => sumOf(onRedis, names);
  const perEvent = (calls: number): string => perEventOf(onRedis, calls);
  const roundTrips = roundTripsOf(onRedis);
  console.log(workload);
  console.log(
    formatTable(
      ['storage', 'events/s', 'p50', 'p99', 'Redis round trips per event'],
      [
        row('memory, one process', inMemory, '—'),
        row('SQLite, one process', onSqlite, '—'),
        row('Redis, two processes', onRedis, roundTrips),
        row('Redis Cluster (3 nodes), two processes', onCluster, roundTripsOf(onCluster)),
        ...(spread === null ? [] : [row(`Redis Cluster, ${identities} identities`, spread, roundTripsOf(spread))]),
      ],
    ),
  );
  const measured: [string, TwoProcessFanoutResult][] = [
    ['Redis', onRedis],
    ['Redis Cluster', onCluster],
    ...(spread === null
      ? []
      : [[`Redis Cluster, ${identities} identities`, spread] as [string, TwoProcessFanoutResult]]),
  ];
  for (const [name, result] of measured) {
    const sent = [...result.commands].filter(([command, calls]) => calls > 0 && ROUND_TRIP_COMMANDS.has(command));
    console.log(
      `${name}, round trips per delivered event: ${sent.map(([command, calls]) => `${command} ${perEventOf(result, calls)}`).join(', ')}`,
    );
  }
  console.log(`commands Redis ran per delivered event, inside scripts included: ${perEvent(sum(() => true))}`);
  console.log(
    `server-fanout two processes: ${runs} SSE readers over Redis, p50 ${onRedis.p50} ms, p99 ${onRedis.p99} ms (${(onRedis.p99 / inMemory.p99).toFixed(2)}× memory), ${roundTrips} Redis round trips per delivered event; Redis Cluster p99 ${onCluster.p99} ms, ${roundTripsOf(onCluster)}${spread === null ? '' : `; ${identities} identities on the cluster p99 ${spread.p99} ms, ${roundTripsOf(spread)}`} (one process: memory p99 ${inMemory.p99} ms, SQLite p99 ${onSqlite.p99} ms)`,
  );
}
