import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A server entry running as a child process (a real process, so it can really be killed). */
export interface SpawnedServer {
  /** `http://127.0.0.1:<port>`, as the entry printed it. */
  url: string;
  child: ChildProcess;
  /** Everything the child wrote to stdout and stderr so far. */
  output(): string;
  /**
   * Sends `signal` and resolves once the process has exited. A process still running
   * {@link EXIT_DEADLINE_MS} later is killed with SIGKILL and the call rejects with its output: a
   * server that ignores SIGTERM is a bug, and this names it instead of a silent test timeout.
   */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** How long {@link SpawnedServer.kill} waits for the process to exit after its signal. */
export const EXIT_DEADLINE_MS = 15_000;

/** Finds a free loopback port (listens on port 0 and closes again). */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts `node --import tsx <entry>` with `env` (on top of this process's environment, without a
 * developer's model settings) and resolves once it printed `http://127.0.0.1:<port>`. Rejects
 * when it exits first or prints nothing within `timeoutMs`.
 */
export function spawnServer(options: {
  entry: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
}): Promise<SpawnedServer> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A developer's own model settings stay out; a test's own (e.g. a fake provider's URL) go in.
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'AGENT_MODEL']) delete env[name];
  Object.assign(env, options.env);
  const child = spawn(process.execPath, ['--import', 'tsx', options.entry], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server printed no URL within ${options.timeoutMs ?? 30_000} ms:\n${output}`)),
      options.timeoutMs ?? 30_000,
    );
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    };
    child.once('exit', onExit);
    const onData = (): void => {
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match === null || match[1] === '0') return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        child,
        output: () => output,
        kill: async (signal) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill(signal);
          let timer: NodeJS.Timeout | undefined;
          const isLate = await Promise.race([
            exited.then(() => false),
            new Promise<boolean>((resolveLate) => {
              timer = setTimeout(() => resolveLate(true), EXIT_DEADLINE_MS);
            }),
          ]);
          clearTimeout(timer);
          if (!isLate) return;
          child.kill('SIGKILL');
          await exited;
          throw new Error(`server did not exit within ${EXIT_DEADLINE_MS} ms of ${signal}:\n${output}`);
        },
      });
    };
    child.stdout?.on('data', onData);
  });
}
