import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoFromEnv } from './demo-from-env.ts';

// The reference server for tests of other clients (clients/python): the demo server without its
// pages (so nothing needs building), on a free loopback port, with in-memory storage and the
// scripted model paced at AGENT_SCRIPTED_DELAY_MS (default 1 ms). AGENT_LIMITS passes through.
// Prints `listening <url>` once it listens; stops on SIGTERM, SIGINT, or when stdin closes (so a
// test runner that dies never leaves it behind).
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env: Record<string, string | undefined> = {
  ...process.env,
  HOST: '127.0.0.1',
  PORT: '0',
  AGENT_CHAT_DB: ':memory:',
  AGENT_SCRIPTED_DELAY_MS: process.env.AGENT_SCRIPTED_DELAY_MS ?? '1',
};
// The scripted offline model and local storage: a developer's settings must not leak into tests.
for (const name of [
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'AGENT_MODEL',
  'AGUI_AGENT_URL',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'DATABASE_URL',
])
  delete env[name];

const demo = await startDemoFromEnv({ env, rootDir });
console.log(`listening ${demo.url}`);

let isStopping = false;
const stop = (): void => {
  if (isStopping) return;
  isStopping = true;
  void demo.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
