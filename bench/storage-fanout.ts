import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createMemoryStorage } from '../src/server/storage/memory-storage.ts';
import { openSqliteStorage } from '../src/server/storage/sqlite-storage.ts';
import { formatTable } from './support/format-table.ts';
import { readFlag, runFanout } from './support/run-fanout.ts';

// `npm run bench:storage-fanout -- --runs 200 --deltas 50`: the server-fanout workload (N
// concurrent runs, one SSE reader each, loopback) on the in-memory storage and on SQLite (a WAL
// file in a temp dir), then what each keeps per run: live, and after the logs are compacted to
// their snapshots. Run with --expose-gc for the heap figure. The last line is the figure.
const runs = readFlag('--runs', 200);
const deltas = readFlag('--deltas', 50);
const intervalMs = readFlag('--interval-ms', 5);
const gc = (globalThis as { gc?: () => void }).gc;
const heapUsed = (): number => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};

const baseline = heapUsed();
const memory = createMemoryStorage();
const inMemory = await runFanout({ storage: memory, runs, deltas, intervalMs });
await inMemory.close();
const memoryLive = (heapUsed() - baseline) / runs;
await memory.compactEndedRuns(Number.MAX_SAFE_INTEGER, runs);
const memoryCompacted = (heapUsed() - baseline) / runs;

const folder = await mkdtemp(join(tmpdir(), 'agent-chat-bench-'));
const path = join(folder, 'agent-chat.sqlite');
const sqlite = openSqliteStorage({ path });
const onSqlite = await runFanout({ storage: sqlite, runs, deltas, intervalMs });
await onSqlite.close();
await sqlite.close();
const bytesInUse = (): number => {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages =
    (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  const bytes = pages * (db.pragma('page_size', { simple: true }) as number);
  db.close();
  return bytes;
};
const sqliteLive = bytesInUse() / runs;
const reopened = openSqliteStorage({ path });
await reopened.compactEndedRuns(Number.MAX_SAFE_INTEGER, runs);
await reopened.close();
const vacuum = new Database(path);
vacuum.exec('VACUUM');
vacuum.close();
const fileBytes = (await stat(path)).size;
const sqliteCompacted = bytesInUse() / runs;
await rm(folder, { recursive: true, force: true });

const row = (name: string, result: typeof inMemory, live: number, compacted: number): string[] => [
  name,
  String(Math.round(result.delivered / result.seconds)),
  `${result.p50} ms`,
  `${result.p99} ms`,
  `${Math.round(live)} B`,
  `${Math.round(compacted)} B`,
];
console.log(`runs ${runs}, events per run ${deltas + 4} after the cursor, delta interval ${intervalMs} ms`);
console.log(
  formatTable(
    ['storage', 'events/s', 'p50', 'p99', 'kept per run', 'after compaction'],
    [
      row(`memory (heap${gc === undefined ? ', no --expose-gc' : ''})`, inMemory, memoryLive, memoryCompacted),
      row('SQLite (file pages in use)', onSqlite, sqliteLive, sqliteCompacted),
    ],
  ),
);
console.log(`SQLite file after compaction and VACUUM: ${fileBytes} B (${Math.round(fileBytes / runs)} B per run)`);
console.log(
  `storage-fanout: SQLite p99 ${onSqlite.p99} ms (memory ${inMemory.p99} ms), ${Math.round(sqliteCompacted)} B per run on disk after compaction (memory ${Math.round(memoryCompacted)} B of heap)`,
);
