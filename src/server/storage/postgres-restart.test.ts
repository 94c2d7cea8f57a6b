import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreateRunResponse, EventEnvelope } from '../../core/protocol.ts';
import { readRunStream, signInDemoUser } from '../../../test/support/demo-user-http.ts';
import { startPostgresServer, type PrivatePostgresServer } from '../../../test/support/postgres-server.ts';
import { findFreePort, spawnServer } from '../../../test/support/spawn-server.ts';
import type { SpawnedServer } from '../../../test/support/spawn-server.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const t0 = Date.now();
const timeline: string[] = [];
const mark = (what: string): void => {
  timeline.push(`${String(Date.now() - t0).padStart(6)} ms  ${what}`);
};

/** `GET /readyz` of `server` until it answers `status` (at most 15 s). */
async function readinessBecomes(server: SpawnedServer, status: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answered = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(3_000) })
      .then((response) => response.status)
      .catch(() => 0);
    if (answered === status || Date.now() > deadline) return answered;
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('two server processes while their Postgres restarts mid-run', () => {
  const servers: SpawnedServer[] = [];
  let postgres: PrivatePostgresServer | null = null;
  afterAll(async () => {
    for (const server of servers) await server.kill('SIGTERM');
    await postgres?.stop();
    console.log(`postgres restart timeline:\n${timeline.join('\n')}`);
    if (process.env['DEBUG_RESTART'] === '1') for (const server of servers) console.log(server.output());
  });

  it('keeps conversations and runs (a run continues or ends RUN_ABANDONED), reports not ready meanwhile, and reconnects on its own', async () => {
    // A Postgres of the test's own: it stops and starts again on its port with its data.
    postgres = await startPostgresServer();
    for (let index = 0; index < 2; index += 1) {
      servers.push(
        await spawnServer({
          entry: join(rootDir, 'test/support/durable-demo-entry.ts'),
          cwd: rootDir,
          env: {
            HOST: '127.0.0.1',
            PORT: String(await findFreePort()),
            DATABASE_URL: postgres.url,
            AGENT_CHAT_LEASE_TTL_MS: '1500',
            AGENT_SCRIPTED_DELAY_MS: '5',
          },
        }),
      );
    }
    const [a, b] = servers as [SpawnedServer, SpawnedServer];
    const user = await signInDemoUser(a.url, 'agent_chat_demo=demo_postgres_restart_1');
    const created = await user.request(a.url, '/runs', {
      method: 'POST',
      body: { agentVersionId: user.agentVersionId, input: { content: [{ type: 'text', text: '/slow' }] } },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(created.status).toBe(201);
    const { runId, sessionId } = (await created.json()) as CreateRunResponse;
    const onB = readRunStream(user, b.url, runId);
    await onB.waitForCount(20);

    await postgres.halt();
    mark(`postgres stopped while ${runId} streams (${onB.events.length} events on B)`);
    expect([await readinessBecomes(a, 503), await readinessBecomes(b, 503)]).toEqual([503, 503]);
    mark('both processes report not ready');
    await new Promise((done) => setTimeout(done, 500));

    await postgres.start();
    mark('postgres started again on its port and its data');
    expect([await readinessBecomes(a, 200), await readinessBecomes(b, 200)]).toEqual([200, 200]);
    mark('both processes ready again, reconnected on their own');

    // The run is still there and goes on (or was abandoned meanwhile); a cancel through B ends it.
    const seenAtRestart = onB.events.length;
    await onB.waitForCount(seenAtRestart + 10);
    mark(`${onB.events.length - seenAtRestart} more events on B since the restart; cancelling through B`);
    await user.request(b.url, `/runs/${runId}/cancel`, { method: 'POST', body: { reason: 'after the restart' } });
    const ended = async (): Promise<EventEnvelope[]> => {
      const events = await onB.done;
      const last = events.at(-1);
      if (last !== undefined && (last.type === 'RUN_FINISHED' || last.type === 'RUN_ERROR')) return events;
      // B's stream broke with its storage: read the whole log again from B.
      return readRunStream(user, b.url, runId).done;
    };
    const events = await ended();
    mark(`${runId} ended ${events.at(-1)?.type} at seq ${events.at(-1)?.seq}`);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.length).toBeGreaterThan(seenAtRestart);
    const last = events.at(-1);
    if (last?.type === 'RUN_ERROR') expect(last.data).toEqual(expect.objectContaining({ code: 'RUN_ABANDONED' }));
    else expect(last?.type).toBe('RUN_FINISHED');
    expect(await readRunStream(user, a.url, runId).done).toEqual(events);
    const session = await user.request(b.url, `/sessions/${sessionId}/messages`);
    expect(session.status).toBe(200);

    // And both take new runs.
    for (const server of [a, b]) {
      const next = await user.request(server.url, '/runs', {
        method: 'POST',
        body: {
          agentVersionId: user.agentVersionId,
          sessionId,
          input: { content: [{ type: 'text', text: '/echo after the restart' }] },
        },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(next.status).toBe(201);
      const { runId: nextRunId } = (await next.json()) as CreateRunResponse;
      expect((await readRunStream(user, server.url, nextRunId).done).at(-1)?.type).toBe('RUN_FINISHED');
    }
  }, 60_000);
});
