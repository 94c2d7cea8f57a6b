import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findRedisServerBinary, startRedisServer } from '../../../test/support/redis-server.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Resolves true once something accepts a connection on the URL's port, false when it is refused. */
function isListening(url: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function waitUntilClosed(url: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!(await isListening(url))) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
}

describe("the tests' private redis-server (test/support/redis-server.ts)", () => {
  it('fails naming the package to install when redis-server is missing, rather than skipping', () => {
    expect(() => findRedisServerBinary({ PATH: '/nonexistent-a:/nonexistent-b' }, '/nonexistent/redis-server')).toThrow(
      "redis-server not found at /nonexistent/redis-server or on PATH: install Debian's redis-server package (apt-get install redis-server; .ci/run does this when it is missing).",
    );
  });

  it('is gone once stopped, with its temp dir', async () => {
    const redis = await startRedisServer();
    expect(await isListening(redis.url)).toBe(true);
    expect(existsSync(redis.dir)).toBe(true);
    await redis.stop();
    expect(await isListening(redis.url)).toBe(false);
    expect(existsSync(redis.dir)).toBe(false);
  });

  it('is stopped by its watchdog when the process that started it is killed with SIGKILL', async () => {
    const owner = spawn(process.execPath, ['--import', 'tsx', join(rootDir, 'test/support/redis-owner-entry.ts')], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { url, dir } = await new Promise<{ url: string; dir: string }>((done, fail) => {
      let output = '';
      owner.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) done(JSON.parse(output) as { url: string; dir: string });
      });
      owner.once('exit', (code) => fail(new Error(`the owner exited (${code}) before starting redis-server`)));
    });
    expect(await isListening(url)).toBe(true);
    owner.kill('SIGKILL');
    expect(await waitUntilClosed(url, 10_000)).toBe(true);
    await expect.poll(() => existsSync(dir)).toBe(false);
  });
});
