import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { completionChunk, startFakeOpenAiServer } from '../src/server/models/test-support/fake-openai-server.ts';
import { findFreePort, spawnServer } from '../test/support/spawn-server.ts';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, type ChatDriver, type DemoWindow } from './support/chat.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A real 1×1 PNG, and a second image that differs from it by its name only in the chip. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PASTED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const CSV = 'city,visitors\nLyon,3\nOslo,5\n';

/** One stored file as the client state names it under its user message. */
interface AttachmentRef {
  attachmentId: string;
  name: string;
  mediaType: string;
  size: number;
}

/** Fetches the protocol from the page, as the signed-in demo user with the widget's identity: status and body. */
function callApi(
  page: Page,
  method: string,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  return page.evaluate(
    async ({ method, path }) => {
      const state = (window as DemoWindow).agentChatDemo!.inline.client.getState();
      const response = await fetch(`/api/agent/v1${path}`, {
        method,
        headers: { 'agent-protocol': '1', 'x-agent-identity': state.bootstrap!.identity.identityId },
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        body: btoa(String.fromCharCode(...bytes)),
        headers: Object.fromEntries(response.headers.entries()),
      };
    },
    { method, path },
  );
}

/** The files of the conversation's first user message, from the widget's client state. */
async function sentFiles(page: Page): Promise<AttachmentRef[]> {
  return page.evaluate(() => {
    const state = (window as DemoWindow).agentChatDemo!.inline.client.getState() as unknown as {
      messages: Array<{ role: string; attachments?: AttachmentRef[] }>;
    };
    return state.messages.find((message) => message.role === 'user')?.attachments ?? [];
  });
}

/** Hands files to the widget the three ways a person can: the attach button's picker, a paste, a drop. */
async function pick(page: Page, widget: ChatDriver, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const chooser = page.waitForEvent('filechooser');
  await widget.root.locator('[part~="attach-button"]').click();
  await (await chooser).setFiles(files);
}

test('files in the conversation: picked, pasted and dropped files reach a vision model, survive a reload, stay their owner’s, and go with the conversation', async ({
  page,
  browser,
  pageErrors: _errors,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'agent-chat-e2e-attachments-'));
  const provider = await startFakeOpenAiServer();
  provider.reply({ kind: 'stream', pieces: [completionChunk({ content: 'Seen.' }, 'stop'), 'data: [DONE]\n\n'] });
  const server = await spawnServer({
    entry: join(rootDir, 'scripts/start.ts'),
    cwd: rootDir,
    env: {
      HOST: '127.0.0.1',
      PORT: String(await findFreePort()),
      AGENT_CHAT_DB: join(folder, 'agent-chat.sqlite'),
      OPENAI_BASE_URL: provider.baseUrl,
      AGENT_MODEL: 'fake-vision',
      AGENT_MODEL_IMAGE_INPUT: 'true',
    },
  });
  try {
    await openDemo(page, `${server.url}/`);
    const widget = chat(page);
    const chips = widget.root.locator('.file-chip');

    await pick(page, widget, [{ name: 'shot.png', mimeType: 'image/png', buffer: PNG }]);
    await widget.input.evaluate((input, base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
      input.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true, composed: true }),
      );
    }, PASTED_PNG.toString('base64'));
    await widget.root.locator('.transcript').evaluate((transcript, text) => {
      const drag = new DataTransfer();
      drag.items.add(new File([text], 'visits.csv', { type: 'text/csv' }));
      for (const type of ['dragover', 'drop'])
        transcript.dispatchEvent(
          new DragEvent(type, { dataTransfer: drag, bubbles: true, cancelable: true, composed: true }),
        );
    }, CSV);
    await expect(widget.root.locator('.file-chip[data-status="uploaded"]')).toHaveCount(3);
    await expect(chips.locator('.file-name')).toHaveText(['shot.png', 'pasted.png', 'visits.csv']);

    await widget.send('What do these show?');
    await widget.waitForIdle();
    await expect(widget.assistantMessages.last()).toContainText('Seen.');
    await expect(chips).toHaveCount(0);

    // The model got both images as image parts with exactly their bytes, and the CSV as text.
    const messages = provider.requests[0]?.body['messages'] as Array<{ role: string; content: unknown }>;
    expect(messages.find((message) => message.role === 'user')?.content).toEqual([
      { type: 'text', text: 'What do these show?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PASTED_PNG.toString('base64')}` } },
    ]);
    const system = messages.filter((message) => message.role === 'system').map((message) => String(message.content));
    expect(system.some((content) => content.includes(CSV))).toBe(true);

    // The message shows its files, after a reload too.
    const fileChips = widget.userMessages.first().locator('.context-ref');
    await expect(fileChips).toHaveText(['shot.png', 'pasted.png', 'visits.csv']);
    await page.reload();
    await expect(fileChips).toHaveText(['shot.png', 'pasted.png', 'visits.csv']);

    // A file is its owner's: served as a download to them, 404 to another demo user.
    const files = await sentFiles(page);
    expect(files.map((file) => [file.name, file.mediaType, file.size])).toEqual([
      ['shot.png', 'image/png', PNG.length],
      ['pasted.png', 'image/png', PASTED_PNG.length],
      ['visits.csv', 'text/csv', CSV.length],
    ]);
    const shot = files[0] as AttachmentRef;
    const own = await callApi(page, 'GET', `/attachments/${shot.attachmentId}`);
    expect(own.status).toBe(200);
    expect(Buffer.from(own.body, 'base64')).toEqual(PNG);
    expect(own.headers['content-disposition']).toMatch(/^attachment;/);
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    const stranger = await browser.newContext();
    try {
      const other = await stranger.newPage();
      await openDemo(other, `${server.url}/`);
      expect((await callApi(other, 'GET', `/attachments/${shot.attachmentId}`)).status).toBe(404);
    } finally {
      await stranger.close();
    }

    // Deleting the conversation deletes its files, on disk too.
    const sessionId = await page.evaluate(
      () => (window as DemoWindow).agentChatDemo!.inline.client.getState().sessionId,
    );
    expect((await callApi(page, 'DELETE', `/sessions/${sessionId}`)).status).toBe(204);
    for (const file of files)
      expect((await callApi(page, 'GET', `/attachments/${file.attachmentId}`)).status).toBe(404);
    const onDisk = (await readdir(join(folder, 'attachments'), { recursive: true })).join('\n');
    for (const file of files) expect(onDisk).not.toContain(file.attachmentId);
  } finally {
    await server.kill('SIGTERM');
    await provider.close();
    await rm(folder, { recursive: true, force: true });
  }
});

test('the composer refuses, with their codes, an HTML file named .png, an 11 MB file and a sixth file, and Send waits until they are removed', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page, '/');
  const widget = chat(page);
  const chips = widget.root.locator('.file-chip');
  await pick(page, widget, [
    { name: 'evil.png', mimeType: 'image/png', buffer: Buffer.from('<!doctype html><script>alert(1)</script>') },
    { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(11 * 1024 * 1024, 'a') },
  ]);
  const codeOf = (name: string) => chips.filter({ hasText: name });
  // Refused by the server after its upload (its bytes are not a PNG), and up front (its size).
  await expect(codeOf('evil.png')).toHaveAttribute('data-code', 'ATTACHMENT_TYPE_UNSUPPORTED');
  await expect(codeOf('big.txt')).toHaveAttribute('data-code', 'PAYLOAD_TOO_LARGE');
  await pick(
    page,
    widget,
    [1, 2, 3, 4, 5, 6].map((index) => ({
      name: `note-${index}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`note ${index}`),
    })),
  );
  await expect(chips.locator('.file-name')).toHaveCount(8);
  await expect(codeOf('note-6.txt')).toHaveAttribute('data-code', 'VALIDATION_FAILED');
  await expect(codeOf('note-6.txt').locator('.file-problem')).toHaveText('At most 5 files per message');
  await expect(widget.root.locator('.file-chip[data-status="uploaded"]')).toHaveCount(5);

  await widget.input.fill('Here are my notes');
  await expect(widget.sendButton).toBeDisabled();
  for (const name of ['evil.png', 'big.txt', 'note-6.txt']) await codeOf(name).locator('.attachment-remove').click();
  await expect(widget.root.locator('.file-chip[data-status="failed"]')).toHaveCount(0);
  await expect(widget.input).toBeFocused();
  await expect(widget.sendButton).toBeEnabled();
});
