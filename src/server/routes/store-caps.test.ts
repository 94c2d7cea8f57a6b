import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';

const HOUR = 3_600_000;
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the store caps (docs/protocol.md §16.3)', () => {
  it('a new session in a full store is 503 with Retry-After; a run in an existing session still starts', async () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 29, 13, 40, 0));
    const engine = createManualEngine();
    server = await startTestServer({
      engine,
      clock,
      identityFor: (subject) => `idn_${subject.id}`,
      retention: { maxSessions: 2, protectActiveSessionsMs: HOUR },
    });
    const body = (sessionId?: string) => ({
      agentVersionId: 'agv_demo_1',
      ...(sessionId === undefined ? {} : { sessionId }),
      input: { content: [{ type: 'text', text: 'Hi' }] },
    });
    const create = (user: string, key: string, sessionId?: string) =>
      (server as TestServer).request('/runs', { user, body: body(sessionId), headers: { 'idempotency-key': key } });
    const alice = await server.createRun('alice');
    await server.createRun('bob');
    await (await engine.handleOf(alice.runId)).append('RUN_FINISHED', { outcome: { type: 'success' } });

    const key = freshKey();
    const refused = await create('carol', key);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '60']);
    expect(await refused.json()).toMatchObject({
      code: 'AGENT_UNAVAILABLE',
      retryable: true,
      retryAfterMs: 60_000,
      details: { reason: 'capacity', limit: 'maxSessions' },
    });
    expect(await server.handler.store.counts()).toEqual({ sessions: 2, runs: 2 });
    const again = await create('alice', freshKey(), alice.sessionId);
    expect(again.status).toBe(201);
    const { runId } = (await again.json()) as { runId: string };
    await (await engine.handleOf(runId)).append('RUN_FINISHED', { outcome: { type: 'success' } });

    // An hour after alice's last run her session may go: the same request is then a new create.
    clock.advance(HOUR);
    const retried = await create('carol', key);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(await server.handler.store.getSession(alice.sessionId)).toBeNull();
  });
});
