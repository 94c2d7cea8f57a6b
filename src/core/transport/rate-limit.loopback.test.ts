import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { createRecordingFetch } from '../../../test/support/record-fetch.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { AgentError } from './agent-error.ts';
import { createHttpTransport } from './http-transport.ts';

/** The transport's 429 policy against the real reference server over loopback (docs/protocol.md §10.2). */
describe('429 from the reference server', () => {
  let server: ReferenceServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const createBody = (text: string): string =>
    JSON.stringify({ agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] } });

  it('waits out 429 RATE_LIMITED (Retry-After) and retries the same key and body, making one run', async () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 29, 13, 40, 0));
    server = await startReferenceServer({ clock, limits: { runsPerMinute: 1 } });
    const recording = createRecordingFetch();
    // No per-attempt timeout: the fake clock moves only when the test moves it, while the I/O is real.
    const transport = createHttpTransport({
      endpoint: `http://127.0.0.1:${server.port}/api/agent`,
      fetch: recording.fetch,
      clock,
      random: () => 0,
      defaultTimeoutMs: 0,
      getIdentity: () => 'idn_user-1',
    });
    const create = (key: string, text: string) =>
      transport.request<{ runId: string }>({
        method: 'POST',
        path: '/runs',
        body: createBody(text),
        idempotencyKey: key,
        attempts: 2,
      });
    const first = await create('key-first-0123456789', 'hello');
    const timersBefore = clock.delays.length;
    const second = create('key-second-012345678', 'again');
    // The transport sleeps the server's Retry-After (60 s at one run a minute), not its 0 ms backoff.
    await waitUntil(() => clock.delays.slice(timersBefore).includes(60_000));
    expect(recording.requests).toHaveLength(2);
    clock.advance(60_000);
    const retried = await second;
    expect([first.status, retried.status]).toEqual([201, 201]);
    expect(retried.body?.runId).not.toBe(first.body?.runId);
    expect(recording.requests.map((request) => request.idempotencyKey)).toEqual([
      '"key-first-0123456789"',
      '"key-second-012345678"',
      '"key-second-012345678"',
    ]);
    expect(recording.requests[2]?.body).toBe(recording.requests[1]?.body);
    expect(await server.handler.store.counts()).toEqual({ sessions: 2, runs: 2 });
  });

  it('does not retry 429 INPUT_LIMIT (retryable: false, no Retry-After)', async () => {
    server = await startReferenceServer({ limits: { maxInputsPerRun: 1 } });
    const recording = createRecordingFetch();
    const transport = createHttpTransport({
      endpoint: `http://127.0.0.1:${server.port}/api/agent`,
      fetch: recording.fetch,
      getIdentity: () => 'idn_user-1',
    });
    const created = await transport.request<{ runId: string }>({
      method: 'POST',
      path: '/runs',
      body: createBody('/slow'),
      idempotencyKey: 'key-create-012345678',
    });
    const runId = created.body?.runId as string;
    const addInput = (key: string) =>
      transport.request({
        method: 'POST',
        path: `/runs/${runId}/inputs`,
        body: JSON.stringify({ content: [{ type: 'text', text: 'and one more thing' }] }),
        idempotencyKey: key,
        attempts: 4,
      });
    expect((await addInput('key-input-1-01234567')).status).toBe(202);
    const error = await addInput('key-input-2-01234567').then(
      () => null,
      (caught: AgentError) => caught,
    );
    expect([error?.status, error?.code, error?.retryable, error?.retryAfterMs]).toEqual([
      429,
      'INPUT_LIMIT',
      false,
      null,
    ]);
    expect(recording.requests.filter((request) => request.idempotencyKey === '"key-input-2-01234567"')).toHaveLength(1);
    await transport.request({ method: 'POST', path: `/runs/${runId}/cancel`, body: '{}' });
  });
});

/** Polls `predicate` on real time (the I/O under test is real) for up to 5 s (expect.poll). */
async function waitUntil(predicate: () => boolean): Promise<void> {
  await expect.poll(predicate, { timeout: 5_000, interval: 5 }).toBe(true);
}
