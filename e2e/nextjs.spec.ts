import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { lstat, mkdir, readlink, rm, rmdir, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { chat, expectSlowAnswerSurvivesReload } from './support/chat.ts';

/** The Next.js App Router example: the fetch handler in `app/api/agent/[...path]/route.ts`. */
const APP_DIR = join(process.cwd(), 'examples', 'nextjs');
/**
 * The example names `agent-chat` as the release tarball (its package.json); here it is the
 * checkout instead, linked where Node looks for it. Next, React and @lit/react resolve from the
 * repository's node_modules. `npm run test:package` builds the example from the tarball.
 */
const CHECKOUT_LINK = join(APP_DIR, 'node_modules', 'agent-chat');
const CHECKOUT_TARGET = join('..', '..', '..');
const NEXT_BIN = join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');
/** Next's own telemetry stays off; its build output is `examples/nextjs/.next` (gitignored). */
const NEXT_ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** Runs `next <args>` on the example; resolves with its output once it exits with 0. */
async function runNext(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [NEXT_BIN, ...args, APP_DIR], { env: NEXT_ENV, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`next ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `next start` on a free port; resolves once it answers. */
async function startNext(): Promise<{ url: string; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1', APP_DIR], {
    env: NEXT_ENV,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 150; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    const answered = await fetch(`${url}/api/agent/v1/bootstrap`).then(
      (response) => response.status === 401,
      () => false,
    );
    if (answered) return { url, server };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill();
  throw new Error('next start never answered');
}

let next: { url: string; server: ChildProcess } | null = null;

/** Links `examples/nextjs/node_modules/agent-chat` to the checkout; refuses to replace an install of the tarball. */
async function linkCheckout(): Promise<void> {
  const existing = await lstat(CHECKOUT_LINK).catch(() => null);
  if (existing !== null) {
    if (existing.isSymbolicLink() && (await readlink(CHECKOUT_LINK)) === CHECKOUT_TARGET) return;
    throw new Error(`${CHECKOUT_LINK} is an install of its own; remove examples/nextjs/node_modules to run this test`);
  }
  await mkdir(join(APP_DIR, 'node_modules'), { recursive: true });
  await symlink(CHECKOUT_TARGET, CHECKOUT_LINK, 'dir');
}

test.beforeAll(async () => {
  // `next build` of the example (it imports agent-chat from dist/, which the global setup built).
  test.setTimeout(300_000);
  await linkCheckout();
  await runNext(['build']);
  next = await startNext();
});

test.afterAll(async () => {
  const server = next?.server;
  if (server !== undefined && server.exitCode === null) {
    server.kill();
    await once(server, 'exit');
  }
  // The link points back at the repository: leave no loop behind for tools that walk the tree.
  await rm(CHECKOUT_LINK, { force: true });
  await rmdir(join(APP_DIR, 'node_modules')).catch(() => undefined);
});

test('a Next.js App Router app serves the widget: it sends, streams, resumes after a reload, and answers an approval', async ({
  page,
  pageErrors: _errors,
}) => {
  await page.goto(`${next?.url}/`);
  const widget = chat(page, '#assistant');
  await expect(widget.root.locator('[part="header"] h2')).toHaveText('My product assistant');
  // The page defines the conversations panel, so the header offers it as the script tag's does.
  await expect(widget.root.locator('[part~="conversations-button"]')).toBeVisible();
  // The element lays itself out at the height the page gives it: the composer sits at its bottom.
  const box = await widget.root.boundingBox();
  const composer = await widget.input.boundingBox();
  expect(box?.height).toBe(640);
  expect((box?.y ?? 0) + (box?.height ?? 0) - ((composer?.y ?? 0) + (composer?.height ?? 0))).toBeLessThan(40);

  // Sends and streams; a reload mid-answer follows the same run from its cursor.
  await expectSlowAnswerSurvivesReload(page, widget);

  // An approval: the card waits, allowing it runs the tool and the run completes.
  await widget.send('/approval');
  const approval = widget.approvalCards.last();
  await expect(approval).toHaveAttribute('data-state', 'open');
  await approval.locator('[part~="allow-button"]').click();
  await widget.waitForIdle();
  await expect(widget.approvalCards).toHaveCount(0);
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'completed');
  await expect(widget.assistantMessages.last()).toHaveText(/Done: draft-42 was deleted\./);
});
