import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { Limits } from '../../core/protocol.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';

const runBody = { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'Hi' }] } };
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(limits: Partial<Limits>) {
  const clock = createFakeClock(Date.UTC(2026, 10, 29, 13, 40, 0));
  const engine = createManualEngine();
  server = await startTestServer({ engine, clock, limits, identityFor: (subject) => `idn_${subject.id}` });
  return { server, clock, engine };
}

async function problemOf(response: Response): Promise<[number, string | null, Record<string, unknown>]> {
  return [response.status, response.headers.get('retry-after'), (await response.json()) as Record<string, unknown>];
}

function create(user: string, key = freshKey(), body: unknown = runBody): Promise<Response> {
  return (server as TestServer).request('/runs', { user, body, headers: { 'idempotency-key': key } });
}

describe('per-identity rate limits (docs/protocol.md §16.1)', () => {
  it('runsPerMinute: past the burst a create is 429 RATE_LIMITED with Retry-After; other users are unaffected', async () => {
    const { clock } = await start({ runsPerMinute: 2 });
    expect((await create('alice')).status).toBe(201);
    expect((await create('alice')).status).toBe(201);
    const key = freshKey();
    const [status, retryAfter, body] = await problemOf(await create('alice', key));
    expect([status, retryAfter]).toEqual([429, '30']);
    expect(body).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      retryAfterMs: 30_000,
      runId: null,
      details: { limit: 'runsPerMinute', runsPerMinute: 2 },
    });
    expect(body.detail).toBe('Too many new messages (at most 2 a minute); try again in 30 s.');
    expect((await create('bob')).status).toBe(201);
    // The refusal stored nothing under its key: the same request after the wait is a new create.
    clock.advance(30_000);
    const retried = await create('alice', key);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it('an idempotent replay of an accepted create returns its run even while the identity is over the limit', async () => {
    await start({ runsPerMinute: 1 });
    const key = freshKey();
    const first = await create('alice', key);
    const firstBody = (await first.json()) as { runId: string };
    expect((await create('alice')).status).toBe(429);
    const replay = await create('alice', key);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(((await replay.json()) as { runId: string }).runId).toBe(firstBody.runId);
  });

  it('a refused invalid create counts too, so a flood of bad bodies is throttled like good ones', async () => {
    await start({ runsPerMinute: 2 });
    const invalid = { agentVersionId: 'agv_demo_1', input: { content: [] } };
    expect((await create('alice', freshKey(), invalid)).status).toBe(422);
    expect((await create('alice', freshKey(), invalid)).status).toBe(422);
    expect((await create('alice', freshKey(), invalid)).status).toBe(429);
  });

  it('maxActiveRuns: one more concurrent run is 429 RATE_LIMITED (Retry-After 5) until one ends', async () => {
    const { engine } = await start({ maxActiveRuns: 2 });
    const first = (await (await create('alice')).json()) as { runId: string };
    expect((await create('alice')).status).toBe(201);
    const [status, retryAfter, body] = await problemOf(await create('alice'));
    expect([status, retryAfter]).toEqual([429, '5']);
    expect(body).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      retryAfterMs: 5_000,
      details: { limit: 'maxActiveRuns', maxActiveRuns: 2 },
    });
    expect((await create('bob')).status).toBe(201);
    await (await engine.handleOf(first.runId)).append('RUN_FINISHED', { outcome: { type: 'success' } });
    expect((await create('alice')).status).toBe(201);
  });

  it('inputsPerMinute counts inputs of every run of the identity; a replayed input is free', async () => {
    await start({ inputsPerMinute: 2 });
    const { runId } = (await (await create('alice')).json()) as { runId: string };
    const input = (key: string): Promise<Response> =>
      (server as TestServer).request(`/runs/${runId}/inputs`, {
        body: { content: [{ type: 'text', text: 'more' }] },
        headers: { 'idempotency-key': key },
      });
    const key = freshKey();
    expect((await input(key)).status).toBe(202);
    expect((await input(freshKey())).status).toBe(202);
    const [status, retryAfter, body] = await problemOf(await input(freshKey()));
    expect([status, retryAfter, body.code, body.details]).toEqual([
      429,
      '30',
      'RATE_LIMITED',
      { limit: 'inputsPerMinute', inputsPerMinute: 2 },
    ]);
    const replay = await input(key);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
  });

  it('interruptAnswersPerMinute and cancelsPerMinute count every answer and cancel, found or not', async () => {
    await start({ interruptAnswersPerMinute: 1, cancelsPerMinute: 1 });
    const { runId } = (await (await create('alice')).json()) as { runId: string };
    const answer = (): Promise<Response> =>
      (server as TestServer).request(`/runs/${runId}/interrupts/int_none`, { body: { decision: 'deny' } });
    expect((await answer()).status).toBe(404);
    const answered = await problemOf(await answer());
    expect([answered[0], answered[1], answered[2].details]).toEqual([
      429,
      '60',
      { limit: 'interruptAnswersPerMinute', interruptAnswersPerMinute: 1 },
    ]);
    const cancel = (): Promise<Response> => (server as TestServer).request(`/runs/${runId}/cancel`, { body: {} });
    expect((await cancel()).status).toBe(202);
    const cancelled = await problemOf(await cancel());
    expect([cancelled[0], cancelled[1], cancelled[2].details]).toEqual([
      429,
      '60',
      { limit: 'cancelsPerMinute', cancelsPerMinute: 1 },
    ]);
  });

  it('readsPerMinute counts GETs, and refills one every 60/N seconds', async () => {
    const { clock } = await start({ readsPerMinute: 3 });
    // identityOf bootstraps once: that is the first read.
    await (server as TestServer).identityOf('alice');
    expect((await (server as TestServer).request('/sessions')).status).toBe(200);
    expect((await (server as TestServer).request('/bootstrap')).status).toBe(200);
    const [status, retryAfter, body] = await problemOf(await (server as TestServer).request('/sessions'));
    expect([status, retryAfter, body.details]).toEqual([429, '20', { limit: 'readsPerMinute', readsPerMinute: 3 }]);
    clock.advance(20_000);
    expect((await (server as TestServer).request('/sessions')).status).toBe(200);
  });
});
