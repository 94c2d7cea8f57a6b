import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { chat, expectSlowAnswerSurvivesReload } from './support/chat.ts';

/** The Next.js App Router example: the fetch handler in `app/api/agent/[...path]/route.ts`. */
const APP_DIR = join(process.cwd(), 'examples', 'nextjs');
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

test.beforeAll(async () => {
  // `next build` of the example (it imports agent-chat from dist/, which the global setup built).
  test.setTimeout(300_000);
  await runNext(['build']);
  next = await startNext();
});

test.afterAll(async () => {
  const server = next?.server;
  if (server !== undefined && server.exitCode === null) {
    server.kill();
    await once(server, 'exit');
  }
});

test('a Next.js App Router app serves the widget: it sends, streams, resumes after a reload, and answers an approval', async ({
  page,
  pageErrors: _errors,
}) => {
  await page.goto(`${next?.url}/`);
  const widget = chat(page, '#assistant');
  await expect(widget.root.locator('[part="header"] h2')).toHaveText('My product assistant');

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
