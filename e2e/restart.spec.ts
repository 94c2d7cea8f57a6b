import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort, spawnServer } from '../test/support/spawn-server.ts';
import type { SpawnedServer } from '../test/support/spawn-server.ts';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';
import { expectedSlowTokens, readSlowTokens } from './support/slow-tokens.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INTERRUPTED_NOTE = 'Interrupted: the server stopped before this answer finished.';

test('the widget keeps its transcript across a server kill -9 and restart, without a reload', async ({
  page,
  pageErrors: _errors,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'agent-chat-e2e-restart-'));
  const port = await findFreePort();
  const start = (): Promise<SpawnedServer> =>
    spawnServer({
      entry: join(rootDir, 'scripts/start.ts'),
      cwd: rootDir,
      env: {
        HOST: '127.0.0.1',
        PORT: String(port),
        AGENT_CHAT_DB: join(folder, 'agent-chat.sqlite'),
        AGENT_CHAT_LEASE_TTL_MS: '1500',
      },
    });
  let server = await start();
  try {
    await openDemo(page, `${server.url}/`);
    const widget = chat(page);
    await widget.send('/echo kept across the restart');
    await widget.waitForIdle();
    await expect(widget.assistantMessages.first()).toHaveText(/kept across the restart/);
    const before = await readState(page);

    await widget.send('/slow');
    await expect
      .poll(async () => readSlowTokens(await widget.assistantMessages.last().innerText()).length)
      .toBeGreaterThanOrEqual(10);
    await server.kill('SIGKILL');
    server = await start();

    // The page was never reloaded: the client resumes its stream and sees the run end abandoned.
    await expect(widget.assistantMessages.last().locator('.message-note')).toHaveText(INTERRUPTED_NOTE);
    await expect(widget.root.locator('[part~="retry-button"]')).toBeVisible();
    const partial = readSlowTokens(await widget.assistantMessages.last().innerText());
    expect(partial).toEqual(expectedSlowTokens(partial.length));
    await expect(widget.userMessages).toHaveText(['You /echo kept across the restart', 'You /slow']);
    await expect(widget.assistantMessages.first()).toHaveText(/kept across the restart/);
    const after = await readState(page);
    expect(after.bootstrap?.identity.identityId).toBe(before.bootstrap?.identity.identityId);
    expect(after.sessionId).toBe(before.sessionId);
    expect(after.error?.code).toBe('RUN_ABANDONED');

    await widget.send('/echo a new message after the restart');
    await widget.waitForIdle();
    await expect(widget.assistantMessages.last()).toHaveText(/a new message after the restart/);
    const settled = await readState(page);
    expect(settled.run?.status).toBe('completed');
    expect(settled.error).toBeNull();
  } finally {
    await server.kill('SIGTERM');
    await rm(folder, { recursive: true, force: true });
  }
});
