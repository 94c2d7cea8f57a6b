import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@redis/client';
import { findRedisServerBinary, startRedisServer, type PrivateRedisServer } from './redis-server.ts';

const run = promisify(execFile);

/** A private three-node Redis Cluster this process started (three masters, no replicas). */
export interface PrivateRedisCluster {
  /** `redis://127.0.0.1:<port>` of each node. */
  nodes: string[];
  /** Stops every node and removes their temp dirs. */
  stop(): Promise<void>;
}

/**
 * Starts three private `redis-server --cluster-enabled yes` nodes on free loopback ports (each its
 * own temp dir and cluster config file, no persistence, under the watchdog of `startRedisServer`),
 * joins them with `redis-cli --cluster create … --cluster-replicas 0 --cluster-yes`, and resolves
 * once every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(options: { timeoutMs?: number } = {}): Promise<PrivateRedisCluster> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const servers: PrivateRedisServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    for (let index = 0; index < 3; index += 1) {
      servers.push(
        await startRedisServer({
          extraArgs: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '2000',
          ],
        }),
      );
    }
    const addresses = servers.map((server) => new URL(server.url).host);
    await run(findRedisCli(), ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], {
      timeout: timeoutMs,
    });
    await Promise.all(servers.map((server) => waitForClusterOk(server.url, timeoutMs)));
    return { nodes: servers.map((server) => server.url), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `redis-cli` next to `redis-server` (Debian's redis-tools ships both in /usr/bin). */
function findRedisCli(): string {
  const path = join(dirname(findRedisServerBinary()), 'redis-cli');
  accessSync(path, constants.X_OK);
  return path;
}

/** Polls `CLUSTER INFO` on one node until it says `cluster_state:ok`. */
async function waitForClusterOk(url: string, timeoutMs: number): Promise<void> {
  const client = createClient({ url, RESP: 2, disableClientInfo: true });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await client.sendCommand<string>(['CLUSTER', 'INFO']);
      if (info.includes('cluster_state:ok')) return;
      if (Date.now() > deadline) throw new Error(`Redis Cluster node ${url} not ok within ${timeoutMs} ms:\n${info}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.close();
  }
}
