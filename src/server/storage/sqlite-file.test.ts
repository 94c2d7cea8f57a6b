import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import { readSse, startTestServer } from '../test-support/start-test-server.ts';
import { StorageOpenError } from './sqlite-file.ts';
import { openSqliteStorage } from './sqlite-storage.ts';
import { createFixtureRun } from './test-support/storage-fixtures.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('the SQLite file', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-sqlite-file-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is readable by its owner only: the folder it creates 0700, the file, -wal and -shm 0600, whatever the umask', async () => {
    const previousUmask = process.umask(0o000);
    const path = join(folder, 'data', 'agent-chat.sqlite');
    try {
      const storage = openSqliteStorage({ path });
      await createFixtureRun(storage, { sessionId: 'ses_1', runId: 'run_1', isNewSession: true });
      expect([modeOf(dirname(path)), modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([
        '700',
        '600',
        '600',
        '600',
      ]);
      await storage.close();
    } finally {
      process.umask(previousUmask);
    }
  });

  it('narrows an existing world-readable file and its -wal and -shm to 0600 when it opens them', async () => {
    const path = join(folder, 'agent-chat.sqlite');
    const first = openSqliteStorage({ path });
    await createFixtureRun(first, { sessionId: 'ses_1', runId: 'run_1', isNewSession: true });
    // A second handle keeps the WAL and SHM files in place while the first one closes.
    const second = openSqliteStorage({ path });
    await first.close();
    for (const file of [path, `${path}-wal`, `${path}-shm`]) chmodSync(file, 0o644);
    const reopened = openSqliteStorage({ path });
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual(['600', '600', '600']);
    expect((await reopened.getRun('run_1'))?.lastSeq).toBe(1);
    await reopened.close();
    await second.close();
  });

  it('refuses a truncated or foreign file with STORAGE_FILE_DAMAGED naming the file and what to do', async () => {
    const path = join(folder, 'agent-chat.sqlite');
    const storage = openSqliteStorage({ path });
    for (let index = 0; index < 100; index += 1) await storage.getOrCreateSetting(`filler_${index}`, 'x'.repeat(2_000));
    await storage.close();
    truncateSync(path, 40_000);
    const truncated = catchError(() => openSqliteStorage({ path }));
    expect(truncated).toBeInstanceOf(StorageOpenError);
    expect(truncated).toMatchObject({ code: 'STORAGE_FILE_DAMAGED', path });
    expect((truncated as Error).message).toContain(path);
    expect((truncated as Error).message).toMatch(/restore it from a backup/);

    writeFileSync(path, 'not a database at all, '.repeat(200));
    expect(catchError(() => openSqliteStorage({ path }))).toMatchObject({ code: 'STORAGE_FILE_DAMAGED', path });
  });

  it('reports a damaged page of an old run’s log through onError when it ends that run’s stream', async () => {
    const path = join(folder, 'agent-chat.sqlite');
    const errors: { error: unknown; context: Record<string, unknown> }[] = [];
    const serve = async () =>
      startTestServer({
        engine: createScriptedTestEngine(),
        storage: openSqliteStorage({ path }),
        onError: (error, context) => errors.push({ error, context }),
      });
    const first = await serve();
    const { runId } = await first.createRun('alice');
    expect((await readSse(await first.request(`/runs/${runId}/events?after=0`))).events.at(-1)?.type).toBe(
      'RUN_FINISHED',
    );
    await first.close();
    await first.handler.storage.close();
    // Overwrite the pages of the event log (its table's root page) with garbage, as a bad disk would.
    const inspect = new Database(path, { readonly: true });
    const pageSize = inspect.pragma('page_size', { simple: true }) as number;
    const root = (
      inspect.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'events'").get() as { rootpage: number }
    ).rootpage;
    inspect.close();
    const file = openSync(path, 'r+');
    writeSync(file, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
    closeSync(file);

    const second = await serve();
    const stream = await second.request(`/runs/${runId}/events?after=0`);
    await stream.text().catch(() => '');
    await vi.waitFor(() =>
      expect(errors).toContainEqual({
        error: expect.objectContaining({ code: 'SQLITE_CORRUPT' }) as unknown,
        context: { where: 'stream', runId },
      }),
    );
    await second.close();
    await second.handler.storage.close();
  });

  it('npm start prints the damaged file, its code and what to do on one line, without a stack, and exits 1', () => {
    const path = join(folder, 'agent-chat.sqlite');
    writeFileSync(path, 'not a database at all, '.repeat(200));
    const script = [
      `import { startDemoFromEnv } from ${JSON.stringify(join(rootDir, 'scripts/demo-from-env.ts'))};`,
      `import { exitOnStartupError } from ${JSON.stringify(join(rootDir, 'scripts/startup-error.ts'))};`,
      `await startDemoFromEnv({ env: { AGENT_CHAT_DB: ${JSON.stringify(path)}, PORT: '0' }, rootDir: ${JSON.stringify(rootDir)} }).catch(exitOnStartupError);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: rootDir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain(`STORAGE_FILE_DAMAGED: The SQLite file ${path} is damaged`);
    expect(child.stderr).not.toMatch(/^\s+at /m);
  });
});

function catchError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}
