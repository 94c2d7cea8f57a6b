import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from '../../scripts/build/ensure-build.ts';

/** Environment variable that carries the demo server's origin to the test workers. */
export const E2E_URL_VARIABLE = 'AGENT_CHAT_E2E_URL';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Playwright global setup: builds when `dist/` is stale, then starts the real demo server
 * (`scripts/start.ts`, as `npm start` does) on a free loopback port, reads the URL it prints and
 * hands it to the workers (unless `AGENT_CHAT_E2E_URL` already names a running one). Returns the
 * teardown that stops the server.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // Already pointed at a running demo server (e.g. `npm start` in another terminal): use it as is.
  if (process.env[E2E_URL_VARIABLE]) return async () => undefined;
  ensureBuild(rootDir);
  // The scripted offline model: a developer's real-model settings must not leak into the tests.
  // The XSS corpus test streams ~200 messages from one demo user within a minute, six at a time,
  // which the shipped runsPerMinute (30) and maxActiveRuns (5) rightly refuse; the rate limits themselves are tested against the handler
  // (src/server/routes/rate-limits.test.ts) and the client (src/core/transport/rate-limit.loopback.test.ts).
  // A fresh SQLite file per run, so nothing is left in the project's .data/ and no run sees another's.
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-chat-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    AGENT_CHAT_DB: join(dataDir, 'agent-chat.sqlite'),
    AGENT_LIMITS: JSON.stringify({ runsPerMinute: 1_000, maxActiveRuns: 12, readsPerMinute: 10_000 }),
  };
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'AGENT_MODEL']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', join(rootDir, 'scripts/start.ts')], {
    cwd: rootDir,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.env[E2E_URL_VARIABLE] = await readServerUrl(child);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

function readServerUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`demo server printed no URL within 30 s:\n${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`demo server exited (${code}) before listening:\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match && match[1] !== '0') {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
  });
}
