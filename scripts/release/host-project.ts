import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { installTarballOffline } from './consumer-project.ts';

/** What never leaves an example folder for the project a host test builds. */
const BUILD_OUTPUTS = new Set(['node_modules', '.next', 'dist', 'build', '.svelte-kit', 'package-lock.json']);

/** Options of {@link installHostProject}. */
export interface InstallHostOptions {
  /** The repository root: its `package-lock.json` pins the example's dependencies. */
  rootDir: string;
  /** The example project (`examples/<host>`), with its own package.json naming `agent-chat`. */
  exampleDir: string;
  /** The release tarball. */
  tarballPath: string;
}

/**
 * Copies the example out of the repository into an empty temporary project (so nothing resolves
 * back into the checkout) and installs it the way a product does: `agent-chat` from the release
 * tarball, the example's other dependencies at the versions the repository's lock pins, offline
 * from the npm cache. Returns the project folder; the caller removes it.
 */
export async function installHostProject(options: InstallHostOptions): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `agent-chat-${basename(options.exampleDir)}-`));
  try {
    await cp(options.exampleDir, dir, {
      recursive: true,
      filter: (source) => !BUILD_OUTPUTS.has(basename(source)),
    });
    const packageJson = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const dependencies = Object.keys({ ...packageJson.dependencies, ...packageJson.devDependencies }).filter(
      (name) => name !== 'agent-chat',
    );
    await installTarballOffline(dir, {
      rootDir: options.rootDir,
      tarballPath: options.tarballPath,
      name: packageJson.name,
      dependencies,
      packageJson,
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** The environment every host command runs in: no telemetry, no network prompts, production. */
function hostEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', CI: '1', ...extra };
}

/**
 * Runs `npm run <script>` in the project; resolves with how long it took, or rejects with the
 * script's output when it fails or outlives `timeoutMs` (then it is killed).
 */
export function runHostScript(project: string, script: string, timeoutMs: number): Promise<number> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: project, env: hostEnv(), detached: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => killGroup(child.pid), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(performance.now() - startedAt);
      else reject(new Error(`npm run ${script} ended with ${signal ?? code} in ${project}:\n${output.slice(-8_000)}`));
    });
  });
}

/** A host app being served by its `start` script. */
export interface RunningHost {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Milliseconds from the start to the first answer of `readyPath`. */
  readyMs: number;
  /** What the app printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `npm run <script>` with `PORT` (and `HOST`) set to a free loopback port and resolves once
 * `readyPath` answers (any status below 500), within `timeoutMs`.
 */
export async function startHost(
  project: string,
  options: { script: string; port: number; readyPath: string; timeoutMs: number },
): Promise<RunningHost> {
  const startedAt = performance.now();
  const env = hostEnv({ PORT: String(options.port), HOST: '127.0.0.1', HOSTNAME: '127.0.0.1' });
  const child = spawn('npm', ['run', '--silent', options.script], { cwd: project, env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${options.port}`;
  const stop = async (): Promise<void> => {
    killGroup(child.pid, 'SIGTERM');
    const forced = setTimeout(() => killGroup(child.pid), 5_000);
    await exited;
    clearTimeout(forced);
  };
  const deadline = startedAt + options.timeoutMs;
  let isExited = false;
  void exited.then(() => (isExited = true));
  for (;;) {
    if (isExited) throw new Error(`npm run ${options.script} exited before serving:\n${output.slice(-8_000)}`);
    const status = await fetch(`${origin}${options.readyPath}`).then(
      (response) => response.status,
      () => 0,
    );
    if (status !== 0 && status < 500) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`npm run ${options.script} did not serve ${options.readyPath} in time:\n${output.slice(-8_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { origin, readyMs: performance.now() - startedAt, output: () => output, stop };
}

/** Ends a detached child and everything it started (npm → next → workers). */
function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
