import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import { openSqliteStorage } from '../storage/sqlite-storage.ts';
import type { RunEngine } from './run-handle.ts';

const LEASE_TTL_MS = 400;
const MAX_BYTES = 1024 * 1024;

describe('a run whose storage is full', () => {
  let folder: string;
  let server: TestServer;
  let other: Database.Database;
  const engineErrors: unknown[] = [];
  let releaseEngine: () => void;
  let engineStarted: Promise<void>;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-full-'));
    const path = join(folder, 'agent-chat.sqlite');
    const released = new Promise<void>((resolve) => (releaseEngine = resolve));
    let markStarted: () => void = () => undefined;
    engineStarted = new Promise<void>((resolve) => (markStarted = resolve));
    // Writes the start of an answer, waits until the test has filled the file, then goes on. Each
    // part is larger than a page, so every later write (the ending's snapshot and message too)
    // needs new pages.
    const engine: RunEngine = {
      async start(handle) {
        const messageId = `msg_answer_${handle.runId}`;
        await handle.append('RUN_STATUS_CHANGED', { status: 'running' });
        await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
        await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: 'x'.repeat(6_000) });
        markStarted();
        await released;
        await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: 'y'.repeat(6_000) });
        await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
        await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
      },
    };
    server = await startTestServer({
      engine,
      storage: openSqliteStorage({ path, maxBytes: MAX_BYTES }),
      leaseTtlMs: LEASE_TTL_MS,
      onError: (error, context) => {
        if (context['runId'] !== undefined) engineErrors.push(error);
      },
    });
    // Another connection, without the cap, is what fills the file (as other data fills a disk).
    other = new Database(path);
  });
  afterEach(async () => {
    other.close();
    await server.close();
    await server.handler.storage.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('ends once writes work again (RUN_ABANDONED) instead of keeping its lease and blocking its session', async () => {
    const { runId, sessionId } = await server.createRun('alice');
    await engineStarted;
    other.exec('CREATE TABLE filler (bytes BLOB)');
    other.prepare('INSERT INTO filler VALUES (zeroblob(?))').run(2 * MAX_BYTES);
    releaseEngine();
    // Both the engine's write and the forced ending after it failed: only a reaper can end the run now.
    const isFull = (error: unknown): boolean => (error as { code?: unknown }).code === 'SQLITE_FULL';
    await vi.waitFor(() => expect(engineErrors.filter(isFull)).toHaveLength(2), { timeout: 10_000 });
    // Space returns: the filler's pages go back to the free list.
    other.exec('DROP TABLE filler');
    await vi.waitFor(
      async () => {
        const run = (await (await server.request(`/runs/${runId}`)).json()) as { status: string; error?: unknown };
        expect(run).toMatchObject({ status: 'failed', error: { code: 'RUN_ABANDONED', retryable: true } });
      },
      { timeout: 20_000, interval: 50 },
    );
    const next = await server.createRun('alice', 'Again', { sessionId });
    expect(next.sessionId).toBe(sessionId);
  });
});
