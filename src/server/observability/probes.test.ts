import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrivateRedisServer } from '../../../test/support/redis-server.ts';
import { startRedisServer } from '../../../test/support/redis-server.ts';
import { createRunEngine } from '../agent-loop/create-run-engine.ts';
import { createScriptedModel } from '../models/scripted-model.ts';
import { openRedisStorage } from '../storage/open-redis-storage.ts';
import { openSqliteStorage } from '../storage/sqlite-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(storage?: AgentStorage): Promise<TestServer> {
  const server = await startTestServer({
    engine: createRunEngine({ model: createScriptedModel({ delayMs: 1 }) }),
    probes: true,
    ...(storage === undefined ? {} : { storage }),
  });
  cleanups.push(() => server.close());
  return server;
}

async function probe(server: TestServer, path: '/healthz' | '/readyz'): Promise<[number, unknown]> {
  const response = await fetch(`${server.baseUrl}${path}`);
  return [response.status, await response.json()];
}

/** Probes `/readyz` until it answers `status` (expect.poll, up to 20 s), and returns that answer. */
async function readinessBecomes(server: TestServer, status: number): Promise<[number, unknown]> {
  let answer: [number, unknown] = [0, null];
  await expect
    .poll(async () => (answer = await probe(server, '/readyz'))[0], { timeout: 20_000, interval: 100 })
    .toBe(status);
  return answer;
}

describe('/healthz and /readyz (probes: true)', () => {
  it('answer live and ready over memory storage, and not ready once the handler closes', async () => {
    const server = await serve();
    expect(await probe(server, '/healthz')).toEqual([200, { status: 'ok' }]);
    expect(await probe(server, '/readyz')).toEqual([
      200,
      { status: 'ready', checks: { storage: 'ok', handler: 'ok' } },
    ]);
    await server.handler.close();
    expect(await probe(server, '/readyz')).toEqual([
      503,
      { status: 'not_ready', checks: { storage: 'ok', handler: 'closed' } },
    ]);
    expect((await fetch(`${server.baseUrl}/readyz`, { method: 'POST' })).status).toBe(405);
  });

  it('are not served unless turned on', async () => {
    const server = await startTestServer({ engine: createRunEngine({ model: createScriptedModel({ delayMs: 1 }) }) });
    cleanups.push(() => server.close());
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(404);
  });

  it('is ready while SQLite takes a write, and not once the database is closed', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agent-chat-readyz-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const storage = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
    const server = await serve(storage);
    expect(await probe(server, '/readyz')).toEqual([
      200,
      { status: 'ready', checks: { storage: 'ok', handler: 'ok' } },
    ]);
    await storage.close();
    expect(await probe(server, '/readyz')).toEqual([
      503,
      { status: 'not_ready', checks: { storage: 'failed', handler: 'ok' } },
    ]);
  });

  it("fails while the test's own redis-server is stopped and recovers when it comes back on its port", async () => {
    let redis: PrivateRedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const storage = await openRedisStorage({ url: redis.url, keyPrefix: 'readyz:', onError: () => {} });
    cleanups.push(() => storage.close());
    const server = await serve(storage);
    expect(await readinessBecomes(server, 200)).toEqual([
      200,
      { status: 'ready', checks: { storage: 'ok', handler: 'ok' } },
    ]);

    await redis.stop();
    const [status, body] = await readinessBecomes(server, 503);
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: 'not_ready', checks: { handler: 'ok' } });
    expect(['failed', 'timeout']).toContain((body as { checks: { storage: string } }).checks.storage);
    // Liveness is not readiness: the process itself is fine.
    expect((await probe(server, '/healthz'))[0]).toBe(200);

    redis = await startRedisServer({ port: Number(new URL(redis.url).port) });
    expect(await readinessBecomes(server, 200)).toEqual([
      200,
      { status: 'ready', checks: { storage: 'ok', handler: 'ok' } },
    ]);
  });
});
