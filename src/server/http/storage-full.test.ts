import { afterEach, describe, expect, it } from 'vitest';
import type { ProblemDetails } from '../../core/protocol.ts';
import { openSqliteStorage } from '../storage/sqlite-storage.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  await server?.handler.storage.close();
  server = undefined;
});

describe('a write on a full storage (docs/protocol.md §14.3)', () => {
  it('answers 503 STORAGE_FULL with Retry-After on create, tells onError, and never 500', async () => {
    const errors: unknown[] = [];
    // Real SQLite capped at its size when opened (`max_page_count`): a write that needs a new page
    // fails with SQLITE_FULL, as on a full disk.
    server = await startTestServer({
      engine: createManualEngine(),
      storage: openSqliteStorage({ path: ':memory:', maxBytes: 1 }),
      identityFor: (subject) => `idn_${subject.id}`,
      onError: (error) => void errors.push(error),
    });
    const response = await server.request('/runs', {
      user: 'carol',
      // Longer than a page, so the message cannot fit in the pages the file already has.
      body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'x'.repeat(20_000) }] } },
      headers: { 'idempotency-key': freshKey() },
    });

    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const problem = (await response.json()) as ProblemDetails;
    expect(problem).toMatchObject({ status: 503, code: 'STORAGE_FULL', retryable: true });
    expect(problem.retryAfterMs).toBeGreaterThan(0);
    // The operator hears of it: the client's answer is no reason to keep a full disk quiet.
    expect(errors).toContainEqual(expect.objectContaining({ code: 'SQLITE_FULL' }));
  });
});
