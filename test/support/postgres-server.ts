import { spawn } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findFreePort } from './spawn-server.ts';
import { waitUntilReady } from './wait-until-ready.ts';

/** A private Postgres this process started in a temp folder (nothing of a system service is used). */
export interface PrivatePostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  port: number;
  /** Stops the server keeping its data, e.g. to test a restart; `start()` brings it back on its port. */
  halt(): Promise<void>;
  /** Starts a halted server again on its port with its data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server and removes its temp folder; resolves once it has exited. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  "install Debian's postgresql package (apt-get install postgresql; .ci/run does this when initdb is missing)";

/** The user initdb and postgres run as when this process is root: both refuse to run as root. */
const UNPRIVILEGED = { uid: 65534, gid: 65534 };

/**
 * Returns the folder holding `initdb` and `postgres`: the first on `PATH` (e.g. `/usr/local/bin`),
 * else Debian's `/usr/lib/postgresql/<version>/bin` (newest first), which is not on `PATH`; throws
 * naming the fix, so a machine without Postgres fails the tests, never skips them.
 */
export function findPostgresBinaries(
  env: Record<string, string | undefined> = process.env,
  debianRoot = '/usr/lib/postgresql',
): string {
  const debian = listVersions(debianRoot).map((version) => join(debianRoot, version, 'bin'));
  const candidates = [...(env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== ''), ...debian];
  for (const dir of candidates) {
    try {
      accessSync(join(dir, 'initdb'), constants.X_OK);
      accessSync(join(dir, 'postgres'), constants.X_OK);
      return dir;
    } catch {
      // Not here; try the next one.
    }
  }
  throw new Error(`initdb and postgres not found on PATH or in ${debianRoot}/*/bin: ${INSTALL_HINT}.`);
}

function listVersions(root: string): string[] {
  try {
    return readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

// Postgres runs under a small sh watchdog: it waits on the pipe this process holds as its stdin,
// and when that pipe closes (halt(), stop(), or this process dying however it dies, even SIGKILL)
// it fast-stops postgres (SIGINT) and removes the temp folder unless halt() left a `keep` mark.
const WATCHDOG =
  'exec 3<&0; dir=$1; shift; "$@" & pid=$!; (read -r _ <&3; kill -INT "$pid" 2>/dev/null) & wait "$pid"; ' +
  '[ -e "$dir/keep" ] || rm -rf "$dir"';

/**
 * Starts a private Postgres: `initdb` in a temp folder (trust auth, no fsync), then `postgres` on
 * a free loopback port with its unix socket in that folder, and resolves once it accepts
 * connections; `extraArgs` are more `postgres` options (`-c name=value`). As root (CI, this machine) both run as `nobody` (uid 65534), owner of the folder:
 * initdb refuses root, and Node's `spawn({ uid, gid })` drops root's groups too.
 */
export async function startPostgresServer(
  options: { timeoutMs?: number; extraArgs?: readonly string[] } = {},
): Promise<PrivatePostgresServer> {
  const bin = findPostgresBinaries();
  const dir = await mkdtemp(join(tmpdir(), 'agent-chat-postgres-'));
  const asUser = process.getuid?.() === 0 ? UNPRIVILEGED : undefined;
  if (asUser !== undefined) await chown(dir, asUser.uid, asUser.gid);
  const data = join(dir, 'data');
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], asUser);
  let port = 0;
  let running: (() => Promise<void>) | null = null;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const extraArgs = options.extraArgs ?? [];
  const start = async (): Promise<void> => {
    if (port !== 0) {
      running = await launch({ bin, dir, data, port, asUser, timeoutMs, extraArgs });
      return;
    }
    for (let attempt = 1; ; attempt += 1) {
      const free = await findFreePort();
      try {
        running = await launch({ bin, dir, data, port: free, asUser, timeoutMs, extraArgs });
        port = free;
        return;
      } catch (error) {
        // Another process may have taken the free port between the probe and the bind.
        if (attempt >= 3) throw error;
      }
    }
  };
  await start();
  const halt = async (): Promise<void> => {
    await writeFile(join(dir, 'keep'), '');
    await running?.();
    running = null;
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    halt,
    start,
    async stop() {
      await rm(join(dir, 'keep'), { force: true });
      await running?.();
      running = null;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function launch(options: {
  bin: string;
  dir: string;
  data: string;
  port: number;
  asUser: { uid: number; gid: number } | undefined;
  timeoutMs: number;
  extraArgs: readonly string[];
}): Promise<() => Promise<void>> {
  const { bin, dir, data, port, asUser, timeoutMs, extraArgs } = options;
  const sockets = join(dir, 'sockets');
  await mkdir(sockets, { recursive: true });
  if (asUser !== undefined) await chown(sockets, asUser.uid, asUser.gid);
  const args = ['-D', data, '-p', String(port), '-k', sockets, '-c', 'listen_addresses=127.0.0.1'];
  args.push(
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  );
  // Kept while starting, so a failed start (a port taken meanwhile) can be tried again on the data.
  await writeFile(join(dir, 'keep'), '');
  const child = spawn('sh', ['-c', WATCHDOG, 'sh', dir, join(bin, 'postgres'), ...args, ...extraArgs], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(asUser ?? {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.stdin.end();
    await exited;
  };
  await waitUntilReady(child, { name: 'postgres', readyText: 'ready to accept connections', timeoutMs, stop });
  await rm(join(dir, 'keep'), { force: true });
  return stop;
}

/** Runs `command` to its end (as `asUser` when given); rejects with its output when it fails. */
async function run(command: string, args: string[], asUser: { uid: number; gid: number } | undefined): Promise<void> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(asUser ?? {}) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${command} exited with ${code}:\n${output}`);
}
