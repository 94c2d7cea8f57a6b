import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@redis/client';
import { startRedisCluster } from '../../test/support/redis-cluster.ts';
import { startRedisServer } from '../../test/support/redis-server.ts';
import { createFanoutRuns, measureFanout } from './run-fanout.ts';

/**
 * The commands the Redis storage sends itself (one network round trip each); every other command
 * Redis counts runs inside one of its Lua scripts.
 */
export const ROUND_TRIP_COMMANDS: ReadonlySet<string> = new Set([
  'evalsha',
  'eval',
  'xread',
  'xrange',
  'xrevrange',
  'client|unblock',
  'client|id',
]);

/** What the two-process fan-out measured, with the Redis commands of its delivery window. */
export interface TwoProcessFanoutResult {
  delivered: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Commands Redis processed from the first append to the last delivery, by command (script calls included). */
  commands: Map<string, number>;
}

type RedisClient = { sendCommand: <T>(args: string[]) => Promise<T> };

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Runs the fan-out across two server processes on one private `redis-server` (or, with `isCluster`,
 * a private three-node Redis Cluster): half the runs are created on (so produced by) each process,
 * and each run is read by one SSE reader on the other process, so every delivered event crosses
 * Redis. Stops both processes and Redis when done.
 */
export async function runTwoProcessFanout(options: {
  runs: number;
  deltas: number;
  intervalMs: number;
  isCluster?: boolean;
  /** Subjects the runs are spread over, run `i` being subject `i mod identities` (default: one). */
  identities?: number;
}): Promise<TwoProcessFanoutResult> {
  const { runs, deltas, intervalMs } = options;
  const redis =
    options.isCluster === true
      ? await startRedisCluster()
      : await startRedisServer().then((server) => ({ nodes: [server.url], stop: () => server.stop() }));
  const children: ChildProcess[] = [];
  const raws = redis.nodes.map((url) => createClient({ url, RESP: 2 }));
  const readCalls = async (): Promise<Map<string, number>> => {
    const total = new Map<string, number>();
    for (const raw of raws) {
      for (const [name, calls] of await readCommandCalls(raw)) total.set(name, (total.get(name) ?? 0) + calls);
    }
    return total;
  };
  try {
    const ports = await Promise.all(
      [0, 1].map(() =>
        spawnFanoutServer(children, {
          ...(options.isCluster === true
            ? { REDIS_CLUSTER_NODES: redis.nodes.join(',') }
            : { REDIS_URL: redis.nodes[0] ?? '' }),
          BENCH_DELTAS: String(deltas),
          BENCH_INTERVAL_MS: String(intervalMs),
          BENCH_MAX_STREAMS: String(runs),
        }),
      ),
    );
    const [baseA, baseB] = ports.map((port) => `http://127.0.0.1:${port}/api/agent/v1`) as [string, string];
    const half = Math.floor(runs / 2);
    const { identities } = options;
    const subjectOf = (index: number): string | undefined =>
      identities === undefined || identities <= 1 ? undefined : `bench_${index % identities}`;
    const onA = await createFanoutRuns(baseA, half, subjectOf);
    const onB = await createFanoutRuns(baseB, runs - half, (index) => subjectOf(half + index));
    await Promise.all(raws.map((raw) => raw.connect()));
    let before = new Map<string, number>();
    const measured = await measureFanout({
      streams: [
        ...onA.map((runId, index) => ({ base: baseB, runId, ...optionalSubject(subjectOf(index)) })),
        ...onB.map((runId, index) => ({ base: baseA, runId, ...optionalSubject(subjectOf(half + index)) })),
      ],
      release: async () => {
        before = await readCalls();
        await Promise.all(ports.map((port) => fetch(`http://127.0.0.1:${port}/bench/go`, { method: 'POST' })));
      },
      expected: runs * (deltas + 4),
    });
    const after = await readCalls();
    const commands = new Map<string, number>();
    for (const [name, calls] of after) {
      commands.set(name, calls - (before.get(name) ?? 0) - (name === 'info' ? raws.length : 0));
    }
    return { ...measured, commands };
  } finally {
    await Promise.all(raws.filter((raw) => raw.isOpen).map((raw) => raw.close()));
    await Promise.all(children.map(stopChild));
    await redis.stop();
  }
}

/** `{subject}` when there is one (the stream of a run of the bench identity names none). */
function optionalSubject(subject: string | undefined): { subject?: string } {
  return subject === undefined ? {} : { subject };
}

/** Calls per command since Redis started (`INFO commandstats`). */
async function readCommandCalls(raw: RedisClient): Promise<Map<string, number>> {
  const info = await raw.sendCommand<string>(['INFO', 'commandstats']);
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1] ?? '', Number(match[2]));
  return calls;
}

/** Starts one fan-out server process (`redis-fanout-server.ts`) with `env`; resolves to its port. */
export function spawnFanoutServer(children: ChildProcess[], env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'redis-fanout-server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`fan-out server exited (${code}) before listening`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { port: number }).port);
    });
  });
}

/** Stops a fan-out server process (SIGTERM) and resolves once it exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
