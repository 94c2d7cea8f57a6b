import { readFlag, runFanout } from './support/run-fanout.ts';

// `npm run bench:server-fanout -- --runs 200 --deltas 50`: N concurrent runs, one SSE reader each,
// on loopback, on the in-memory storage. Prints delivered events/s and append-to-delivery latency;
// the last line is the figure. (bench/storage-fanout.ts runs the same workload on SQLite.)
const runs = readFlag('--runs', 200);
const deltas = readFlag('--deltas', 50);
const intervalMs = readFlag('--interval-ms', 5);

const result = await runFanout({ runs, deltas, intervalMs });
await result.close();
console.log(`runs ${runs}, events per run ${deltas + 4} after the cursor, delta interval ${intervalMs} ms`);
console.log(`delivered ${result.delivered} events in ${result.seconds.toFixed(2)} s`);
console.log(`append-to-delivery latency p50 ${result.p50} ms, p99 ${result.p99} ms`);
console.log(
  `server-fanout: ${Math.round(result.delivered / result.seconds)} events/s to ${runs} SSE readers, p50 ${result.p50} ms, p99 ${result.p99} ms`,
);
