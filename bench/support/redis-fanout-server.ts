import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openRedisStorage } from '../../src/server/storage/open-redis-storage.ts';
import { createPostgresStorage } from '../../src/server/storage/postgres/postgres-storage.ts';
import { createFanoutEngine, createFanoutHandler } from './run-fanout.ts';

// One server process of bench/server-fanout.ts --two-processes: the fan-out handler on the Redis
// storage at REDIS_URL, on the Redis Cluster of REDIS_CLUSTER_NODES (comma-separated URLs; keys
// under BENCH_KEY_PREFIX), or (--postgres) on the Postgres storage at DATABASE_URL. Prints `{"port":…}` on its first stdout line,
// then serves the handler plus POST /bench/go, which lets this process's runs start appending.
const keyPrefix = process.env.BENCH_KEY_PREFIX ?? 'bench:';
const clusterNodes = process.env.REDIS_CLUSTER_NODES;
const databaseUrl = process.env.DATABASE_URL;
const storage =
  databaseUrl !== undefined
    ? await createPostgresStorage({
        connectionString: databaseUrl,
        maxConnections: Number(process.env.BENCH_PG_CONNECTIONS ?? 10),
      })
    : await openRedisStorage(
        clusterNodes === undefined
          ? { url: process.env.REDIS_URL ?? '', keyPrefix }
          : { clusterNodes: clusterNodes.split(','), keyPrefix },
      );
const { engine, release } = createFanoutEngine({
  deltas: Number(process.env.BENCH_DELTAS ?? 50),
  intervalMs: Number(process.env.BENCH_INTERVAL_MS ?? 5),
});
const handler = createFanoutHandler({ engine, storage, maxStreams: Number(process.env.BENCH_MAX_STREAMS ?? 1000) });

const server = createServer((req, res) => {
  if (req.url === '/bench/go') {
    release();
    res.end('{}');
    return;
  }
  handler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  void handler
    .close()
    .then(() => storage.close())
    .then(() => process.exit(0));
});
