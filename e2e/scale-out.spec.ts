import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisCluster } from '../test/support/redis-cluster.ts';
import { startRedisServer } from '../test/support/redis-server.ts';
import { findFreePort, spawnServer } from '../test/support/spawn-server.ts';
import type { SpawnedServer } from '../test/support/spawn-server.ts';
import { startSwitchingProxy } from '../test/support/switching-proxy.ts';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';
import { expectedSlowTokens, readSlowTokens } from './support/slow-tokens.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The store both processes share: the environment that selects it, and how to stop it. */
interface SharedStore {
  env: Record<string, string>;
  stop(): Promise<void>;
}

const STORES: [string, () => Promise<SharedStore>][] = [
  [
    'Redis',
    async () => {
      const redis = await startRedisServer();
      return { env: { REDIS_URL: redis.url }, stop: () => redis.stop() };
    },
  ],
  [
    'a three-node Redis Cluster',
    async () => {
      const cluster = await startRedisCluster();
      const nodes = cluster.nodes.map((node) => new URL(node).host).join(',');
      return { env: { REDIS_CLUSTER_NODES: nodes }, stop: () => cluster.stop() };
    },
  ],
];

for (const [storeName, openStore] of STORES) {
  test(`behind a load balancer over two processes on ${storeName}, a reload mid-stream lands on the other process and loses or repeats nothing`, async ({
    page,
    pageErrors: _errors,
  }) => {
    const redis = await openStore();
    const servers: SpawnedServer[] = [];
    const start = async (): Promise<SpawnedServer> => {
      const server = await spawnServer({
        entry: join(rootDir, 'scripts/start.ts'),
        cwd: rootDir,
        env: { HOST: '127.0.0.1', PORT: String(await findFreePort()), ...redis.env },
      });
      servers.push(server);
      return server;
    };
    try {
      const [a, b] = await Promise.all([start(), start()]);
      const proxy = await startSwitchingProxy({ A: a.url, B: b.url });
      try {
        // Round robin while the page loads and signs in: both processes serve it.
        await openDemo(page, `${proxy.url}/`);
        const widget = chat(page);
        await widget.send('/echo served by either process');
        await widget.waitForIdle();
        await expect(widget.assistantMessages.first()).toHaveText(/served by either process/);
        expect(new Set(proxy.forwarded.map((r) => r.upstream))).toEqual(new Set(['A', 'B']));

        // The long run is created on and produced by A, then the page reloads onto B alone.
        proxy.pin('A');
        await widget.send('/slow');
        await expect
          .poll(async () => readSlowTokens(await widget.assistantMessages.last().innerText()).length)
          .toBeGreaterThanOrEqual(10);
        const { run } = await readState(page);
        expect(run?.status).toBe('running');
        proxy.pin('B');
        const reloadedAt = proxy.forwarded.length;
        await page.reload();
        await openDemo(page, page.url());
        await expect.poll(async () => (await readState(page)).run?.runId).toBe(run?.runId);
        const shownAfterReload = readSlowTokens(await widget.assistantMessages.last().innerText()).length;
        await expect
          .poll(async () => readSlowTokens(await widget.assistantMessages.last().innerText()).length)
          .toBeGreaterThan(shownAfterReload + 10);

        // Stopped through B: A's engine ends the answer where it was.
        await widget.stopButton.click();
        await widget.waitForIdle();
        const tokens = readSlowTokens(await widget.assistantMessages.last().innerText());
        expect(tokens).toEqual(expectedSlowTokens(tokens.length));
        const state = await readState(page);
        expect(state.run).toEqual(expect.objectContaining({ runId: run?.runId, status: 'cancelled' }));
        expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'reasoning', 'assistant']);
        const created = proxy.forwarded.filter((r) => r.method === 'POST' && r.path.endsWith('/v1/runs'));
        expect(created).toHaveLength(2);
        expect(created[1]?.upstream).toBe('A');
        const afterReload = proxy.forwarded.slice(reloadedAt);
        expect(afterReload.some((r) => r.path.includes(`/runs/${run?.runId}/events`))).toBe(true);
        expect(new Set(afterReload.map((r) => r.upstream))).toEqual(new Set(['B']));
      } finally {
        await proxy.close();
      }
    } finally {
      for (const server of servers) await server.kill('SIGTERM');
      await redis.stop();
    }
  });
}
