import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from './spawn-server.ts';
import type { SpawnedServer } from './spawn-server.ts';

const rootDir = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Starts the durable demo server (`test/support/durable-demo-entry.ts`) as a real process on
 * `port`, keeping its SQLite file in `folder`, with a 1.5 s lease and a 1 ms scripted delay, so
 * restart tests can kill it and start it again on the same file and port.
 */
export function spawnDurableDemoServer(options: { port: number; folder: string }): Promise<SpawnedServer> {
  return spawnServer({
    entry: join(rootDir, 'test/support/durable-demo-entry.ts'),
    cwd: rootDir,
    env: {
      HOST: '127.0.0.1',
      PORT: String(options.port),
      AGENT_CHAT_DB: join(options.folder, 'agent-chat.sqlite'),
      AGENT_CHAT_LEASE_TTL_MS: '1500',
      AGENT_SCRIPTED_DELAY_MS: '1',
    },
  });
}
