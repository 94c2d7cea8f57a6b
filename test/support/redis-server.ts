import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findFreePort } from './spawn-server.ts';
import { waitUntilReady } from './wait-until-ready.ts';

/** A private `redis-server` this process started (nothing of the system's service is used). */
export interface PrivateRedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Its working directory (a temp dir; nothing is persisted into it). */
  dir: string;
  /** Stops the server and removes its temp dir; resolves once it has exited. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  "install Debian's redis-server package (apt-get install redis-server; .ci/run does this when it is missing)";

/**
 * Returns the path of `redis-server`: `preferred` (Debian's `/usr/bin/redis-server`), else the
 * first on `PATH`; throws naming the fix, so a machine without it fails the tests, never skips them.
 */
export function findRedisServerBinary(
  env: Record<string, string | undefined> = process.env,
  preferred = '/usr/bin/redis-server',
): string {
  const candidates = [preferred, ...(env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'redis-server'))];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next one.
    }
  }
  throw new Error(`redis-server not found at ${preferred} or on PATH: ${INSTALL_HINT}.`);
}

// The server runs under a small sh watchdog: it waits on the pipe this process holds as its stdin,
// and when that pipe closes (stop(), or this process dying however it dies, even SIGKILL) it stops
// redis-server and removes its temp dir, so no test run ever leaves one behind.
const WATCHDOG =
  'exec 3<&0; dir=$1; shift; "$@" & pid=$!; (read -r _ <&3; kill "$pid" 2>/dev/null) & wait "$pid"; rm -rf "$dir"';

/**
 * Starts a private `redis-server` on a free loopback port (or `port`, e.g. to bring back one that
 * was stopped) with a temp dir, no persistence (`--save '' --appendonly no`) and no system
 * service, and resolves once it accepts connections. `extraArgs` are more `redis-server` options
 * (a cluster node's, see `startRedisCluster`; `--appendonly yes` to persist); `dataDir` is a
 * folder of the caller's to keep the data in across a stop and a start (the caller removes it).
 */
export async function startRedisServer(
  options: { timeoutMs?: number; port?: number; extraArgs?: readonly string[]; dataDir?: string } = {},
): Promise<PrivateRedisServer> {
  const binary = findRedisServerBinary();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(
        binary,
        options.timeoutMs ?? 10_000,
        options.port,
        options.extraArgs ?? [],
        options.dataDir,
      );
    } catch (error) {
      // Another process may have taken the free port between the probe and the bind.
      if (attempt >= 3) throw error;
    }
  }
}

async function startOnce(
  binary: string,
  timeoutMs: number,
  wanted: number | undefined,
  extraArgs: readonly string[],
  dataDir: string | undefined,
): Promise<PrivateRedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-chat-redis-'));
  const port = wanted ?? (await findFreePort());
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dataDir ?? dir,
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  args.push(...extraArgs);
  const child = spawn('sh', ['-c', WATCHDOG, 'sh', dir, binary, ...args, '--daemonize', 'no'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.stdin.end();
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  await waitUntilReady(child, { name: 'redis-server', readyText: 'Ready to accept connections', timeoutMs, stop });
  return { url: `redis://127.0.0.1:${port}`, dir, stop };
}
