import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';

const engine = createManualEngine();
let server: TestServer;
const text = (value: string) => [{ type: 'text', text: value }];
const runBody = { agentVersionId: 'agv_demo_1', input: { content: text('Hi') } };

beforeAll(async () => {
  server = await startTestServer({
    engine,
    // maxEventBytes is small here so a request inside every field limit can still make too large an event.
    limits: { maxEventBytes: 4_096, maxInputChars: 2_000, maxActiveRuns: 100 },
    // References are accepted (as empty texts) so their sizes, not the missing resolver, are what is tested.
    resolveContextRefs: (_subject, refs) => ({
      kind: 'resolved',
      refs: refs.map((ref) => ({ ref: ref.ref, text: '' })),
    }),
  });
});
afterAll(() => server.close());

async function detailsOf(response: Response): Promise<[number, string, unknown]> {
  const body = (await response.json()) as { code: string; details: unknown };
  return [response.status, body.code, body.details];
}

function create(body: unknown): Promise<Response> {
  return server.request('/runs', { body, headers: { 'idempotency-key': freshKey() } });
}

const ref = (overrides: Record<string, unknown> = {}) => ({ ref: 'doc:42', title: 'Draft 42', ...overrides });

describe('every request field has a published limit (docs/protocol.md §16.2)', () => {
  const cases: Array<{ title: string; body: unknown; details: Record<string, unknown> }> = [
    {
      title: '20 refs with 12,000-character titles (the 241 KB RUN_STARTED of issue 11)',
      body: {
        ...runBody,
        input: {
          content: text('Hi'),
          contextRefs: Array.from({ length: 20 }, () => ref({ title: 't'.repeat(12_000) })),
        },
      },
      details: {
        field: 'input.contextRefs[0].title',
        limit: 'maxContextTitleChars',
        maxContextTitleChars: 256,
        actual: 12_000,
      },
    },
    {
      title: 'more refs than maxContextRefs',
      body: { ...runBody, input: { content: text('Hi'), contextRefs: Array.from({ length: 21 }, () => ref()) } },
      details: { field: 'input.contextRefs', limit: 'maxContextRefs', maxContextRefs: 20, actual: 21 },
    },
    {
      title: 'a ref over maxContextRefChars',
      body: { ...runBody, input: { content: text('Hi'), contextRefs: [ref(), ref({ ref: 'r'.repeat(257) })] } },
      details: { field: 'input.contextRefs[1].ref', limit: 'maxContextRefChars', maxContextRefChars: 256, actual: 257 },
    },
    {
      title: 'a url over maxContextUrlChars',
      body: {
        ...runBody,
        input: { content: text('Hi'), contextRefs: [ref({ url: `https://x.test/${'u'.repeat(2_040)}` })] },
      },
      details: {
        field: 'input.contextRefs[0].url',
        limit: 'maxContextUrlChars',
        maxContextUrlChars: 2048,
        actual: 2_055,
      },
    },
    {
      title: 'more content parts than maxContentParts',
      body: { ...runBody, input: { content: Array.from({ length: 17 }, () => ({ type: 'text', text: 'a' })) } },
      details: { field: 'content', limit: 'maxContentParts', maxContentParts: 16, actual: 17 },
    },
    {
      title: 'a clientMessageId over maxIdChars',
      body: { ...runBody, input: { content: text('Hi'), clientMessageId: 'c'.repeat(129) } },
      details: { field: 'input.clientMessageId', limit: 'maxIdChars', maxIdChars: 128, actual: 129 },
    },
    {
      title: 'a sessionId over maxIdChars',
      body: { ...runBody, sessionId: 's'.repeat(200) },
      details: { field: 'sessionId', limit: 'maxIdChars', maxIdChars: 128, actual: 200 },
    },
    {
      title: 'an agentVersionId over maxIdChars',
      body: { ...runBody, agentVersionId: 'v'.repeat(100_000) },
      details: { field: 'agentVersionId', limit: 'maxIdChars', maxIdChars: 128, actual: 100_000 },
    },
    {
      title: 'a modelId over maxIdChars',
      body: { ...runBody, options: { modelId: 'm'.repeat(129) } },
      details: { field: 'options.modelId', limit: 'maxIdChars', maxIdChars: 128, actual: 129 },
    },
  ];
  for (const { title, body, details } of cases) {
    it(`POST /runs: ${title} → 422 naming the limit`, async () => {
      const before = await server.handler.store.counts();
      expect(await detailsOf(await create(body))).toEqual([422, 'VALIDATION_FAILED', details]);
      expect(await server.handler.store.counts()).toEqual(before);
    });
  }

  it('POST /runs: fields inside their limits that make a RUN_STARTED over maxEventBytes → 422, nothing created', async () => {
    const before = await server.handler.store.counts();
    const contextRefs = Array.from({ length: 20 }, (_, i) => ref({ ref: `doc:${i}`, title: 'T'.repeat(250) }));
    const [status, code, details] = await detailsOf(
      await create({ ...runBody, input: { content: text('Hi'), contextRefs } }),
    );
    expect([status, code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(details).toMatchObject({
      field: 'input',
      limit: 'maxEventBytes',
      maxEventBytes: 4096,
      eventType: 'RUN_STARTED',
    });
    expect((details as { actual: number }).actual).toBeGreaterThan(4096);
    expect(await server.handler.store.counts()).toEqual(before);
  });

  it('POST /runs/{id}/inputs: a message inside maxInputChars whose echo passes maxEventBytes (1,500 × 語 = 4,500 bytes) → 422, nothing appended', async () => {
    const { runId } = await server.createRun('alice');
    const response = await server.request(`/runs/${runId}/inputs`, {
      body: { content: text('語'.repeat(1_500)) },
      headers: { 'idempotency-key': freshKey() },
    });
    const [status, code, details] = await detailsOf(response);
    expect([status, code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(details).toMatchObject({
      field: 'content',
      limit: 'maxEventBytes',
      maxEventBytes: 4096,
      eventType: 'TEXT_MESSAGE_CONTENT',
    });
    expect((await server.handler.store.getRun(runId))?.record.snapshot().lastSeq).toBe(1);
  });

  it('POST /runs/{id}/interrupts/{iid}: a {response} whose INTERRUPT_RESOLVED passes maxEventBytes → 422, still open', async () => {
    const { runId } = await server.createRun('alice');
    const handle = await engine.handleOf(runId);
    await handle.append('INTERRUPT_REQUESTED', { interrupt: { id: 'int_1', reason: 'confirmation' } });
    const response = await server.request(`/runs/${runId}/interrupts/int_1`, {
      body: { response: { note: 'n'.repeat(5_000) } },
    });
    const [status, code, details] = await detailsOf(response);
    expect([status, code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(details).toMatchObject({ field: 'response', limit: 'maxEventBytes', eventType: 'INTERRUPT_RESOLVED' });
    expect(handle.snapshot().interrupts[0]?.state).toBe('open');
  });

  it('reasons and digests: cancel reason over maxReasonChars, argsDigest over maxIdChars → 422 naming the limit', async () => {
    const { runId } = await server.createRun('alice');
    const cancel = await server.request(`/runs/${runId}/cancel`, { body: { reason: 'r'.repeat(501) } });
    expect(await detailsOf(cancel)).toEqual([
      422,
      'VALIDATION_FAILED',
      { field: 'reason', limit: 'maxReasonChars', maxReasonChars: 500, actual: 501 },
    ]);
    const answer = await server.request(`/runs/${runId}/interrupts/int_1`, {
      body: { decision: 'allow', argsDigest: 'd'.repeat(129) },
    });
    expect(await detailsOf(answer)).toEqual([
      422,
      'VALIDATION_FAILED',
      { field: 'argsDigest', limit: 'maxIdChars', maxIdChars: 128, actual: 129 },
    ]);
  });
});
