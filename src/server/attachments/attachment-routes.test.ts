import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BootstrapResponse, Limits, RunResource, UploadAttachmentResponse } from '../../core/protocol.ts';
import { openRawSocket, sendRawHttp } from '../../../test/support/raw-http.ts';
import { createAgentFetchHandler } from '../create-agent-fetch-handler.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import { openSqliteStorage } from '../storage/sqlite-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import type { ManualEngine } from '../test-support/manual-engine.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';
import type { AttachmentStore } from './attachment-store.ts';
import { openDirectoryAttachmentStore } from './directory-attachment-store.ts';
import { createMemoryAttachmentStore } from './memory-attachment-store.ts';

const PNG_BYTES = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x01, 0x02, 0x03,
]);
const CSV_TEXT = 'city,visitors\nLyon,3\nOslo,5\n';

let server: TestServer | undefined;
let storage: AgentStorage | undefined;
let folder: string | undefined;

afterEach(async () => {
  await server?.close();
  await storage?.close();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  server = undefined;
  storage = undefined;
  folder = undefined;
});

const VISION_MODEL = { modelId: 'vision', label: 'Vision', default: true, available: true, imageInput: true };
const TEXT_MODEL = { modelId: 'text-only', label: 'Text only', available: true };

interface Setup {
  name: string;
  open: () => Promise<{ storage: AgentStorage; attachments: AttachmentStore; files: () => Promise<string[]> }>;
}

const SETUPS: Setup[] = [
  {
    name: 'memory',
    open: async () => {
      const attachments = createMemoryAttachmentStore();
      return {
        storage: createMemoryStorage(),
        attachments,
        files: async () => (await attachments.list()).map((file) => file.attachmentId),
      };
    },
  },
  {
    name: 'SQLite and the directory store',
    open: async () => {
      folder = await mkdtemp(join(tmpdir(), 'agent-chat-attachments-'));
      const directory = join(folder, 'attachments');
      const root = folder;
      return {
        storage: openSqliteStorage({ path: join(root, 'agent-chat.sqlite') }),
        attachments: openDirectoryAttachmentStore({ directory }),
        files: async () => {
          const owners = await readdir(directory);
          const names = await Promise.all(owners.map((owner) => readdir(join(directory, owner))));
          return names.flat();
        },
      };
    },
  },
];

async function start(
  setup: Setup,
  limits: Partial<Limits> = {},
): Promise<{ server: TestServer; engine: ManualEngine; files: () => Promise<string[]> }> {
  const opened = await setup.open();
  storage = opened.storage;
  const engine = createManualEngine();
  server = await startTestServer({
    engine,
    storage,
    attachments: opened.attachments,
    models: [VISION_MODEL, TEXT_MODEL],
    limits,
  });
  return { server, engine, files: opened.files };
}

function upload(user: string, file: { name: string; type: string; bytes: Uint8Array | string }): Promise<Response> {
  const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes;
  return (server as TestServer).request('/attachments', {
    user,
    method: 'POST',
    headers: { 'content-type': file.type, 'x-attachment-name': encodeURIComponent(file.name) },
    rawBody: bytes as unknown as string,
  });
}

async function uploaded(user: string, file: { name: string; type: string; bytes: Uint8Array | string }) {
  const response = await upload(user, file);
  expect(response.status).toBe(201);
  return (await response.json()) as UploadAttachmentResponse;
}

function send(user: string, attachmentIds: string[], extra: { sessionId?: string; modelId?: string } = {}) {
  return (server as TestServer).request('/runs', {
    user,
    headers: { 'idempotency-key': freshKey() },
    body: {
      agentVersionId: 'agv_demo_1',
      ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      input: {
        content: [{ type: 'text', text: 'What do these show?' }],
        attachments: attachmentIds.map((attachmentId) => ({ attachmentId })),
      },
      ...(extra.modelId === undefined ? {} : { options: { modelId: extra.modelId } }),
    },
  });
}

async function finish(engine: ManualEngine, runId: string): Promise<void> {
  const handle = await engine.handleOf(runId);
  await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
}

describe.each(SETUPS)('attachments over HTTP ($name)', (setup) => {
  it('stores an upload and serves its exact bytes to its owner only, as a download', async () => {
    await start(setup);
    const file = await uploaded('alice', { name: 'chart ü.png', type: 'image/png', bytes: PNG_BYTES });
    expect(file).toEqual({
      attachmentId: expect.stringMatching(/^att_/),
      name: 'chart ü.png',
      mediaType: 'image/png',
      size: PNG_BYTES.byteLength,
    });
    const served = await (server as TestServer).request(`/attachments/${file.attachmentId}`, { user: 'alice' });
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_BYTES);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="chart _.png"; filename*=UTF-8''chart%20%C3%BC.png`,
    );
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const other = await (server as TestServer).request(`/attachments/${file.attachmentId}`, { user: 'bob' });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses HTML named .png, SVG, an oversized file and a file past the quota, each with its code', async () => {
    await start(setup, { maxAttachmentBytes: 1_000, maxAttachmentBytesPerIdentity: 1_500 });
    const html = await upload('alice', { name: 'cat.png', type: 'image/png', bytes: '<html><script>x()</script>' });
    expect(html.status).toBe(415);
    expect(await html.json()).toMatchObject({
      code: 'ATTACHMENT_TYPE_UNSUPPORTED',
      details: { mediaType: 'image/png', reason: 'content_mismatch' },
    });
    const svg = await upload('alice', { name: 'logo.svg', type: 'image/svg+xml', bytes: '<svg/>' });
    expect(svg.status).toBe(415);
    expect(await svg.json()).toMatchObject({ code: 'ATTACHMENT_TYPE_UNSUPPORTED', details: { reason: 'not_allowed' } });
    const big = await upload('alice', { name: 'big.txt', type: 'text/plain', bytes: 'a'.repeat(1_001) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { limit: 'maxAttachmentBytes', maxAttachmentBytes: 1_000 },
    });
    await uploaded('alice', { name: 'one.txt', type: 'text/plain', bytes: 'a'.repeat(900) });
    const over = await upload('alice', { name: 'two.txt', type: 'text/plain', bytes: 'b'.repeat(900) });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({
      code: 'ATTACHMENT_QUOTA_EXCEEDED',
      details: { limit: 'maxAttachmentBytesPerIdentity', heldBytes: 900 },
    });
    // Another identity's quota is its own.
    await uploaded('bob', { name: 'two.txt', type: 'text/plain', bytes: 'b'.repeat(900) });
  });

  it('refuses an 11 MB file at the default limit before storing anything', async () => {
    const { files } = await start(setup);
    const big = await upload('alice', { name: 'big.png', type: 'image/png', bytes: new Uint8Array(11 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { limit: 'maxAttachmentBytes', maxAttachmentBytes: 10 * 1024 * 1024 },
    });
    expect(await files()).toEqual([]);
  });

  it('counts uploads against attachmentsPerMinute', async () => {
    await start(setup, { attachmentsPerMinute: 1 });
    await uploaded('alice', { name: 'a.txt', type: 'text/plain', bytes: 'a' });
    const second = await upload('alice', { name: 'b.txt', type: 'text/plain', bytes: 'b' });
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 'attachmentsPerMinute' } });
  });

  it('refuses an upload without the identity header (a cross-site form cannot send one)', async () => {
    await start(setup);
    const response = await fetch(`${(server as TestServer).baseUrl}/api/agent/v1/attachments`, {
      method: 'POST',
      headers: { 'x-test-user': 'alice', 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(400);
  });

  it('publishes the attachment limits and capability in bootstrap', async () => {
    await start(setup);
    const body = (await (await (server as TestServer).request('/bootstrap')).json()) as BootstrapResponse;
    expect(body.capabilities.attachments).toEqual({ supported: true });
    expect(body.limits).toMatchObject({
      maxAttachmentBytes: 10 * 1024 * 1024,
      maxAttachmentsPerMessage: 5,
      attachmentsPerMinute: 30,
    });
    expect(body.limits.attachmentTypes).toContain('image/png');
    expect(body.limits.attachmentTypes).not.toContain('image/svg+xml');
  });

  it('gives the run the files: metadata in RUN_STARTED and the snapshot, image bytes to the engine, CSV as text', async () => {
    const { engine } = await start(setup);
    const image = await uploaded('alice', { name: 'shot.png', type: 'image/png', bytes: PNG_BYTES });
    const csv = await uploaded('alice', { name: 'visits.csv', type: 'text/csv', bytes: CSV_TEXT });
    const created = await send('alice', [image.attachmentId, csv.attachmentId]);
    expect(created.status).toBe(201);
    const { runId } = (await created.json()) as { runId: string };
    const handle = await engine.handleOf(runId);
    expect(handle.input.files).toEqual([image, csv]);
    expect(handle.input.attachments).toEqual([{ ref: csv.attachmentId, title: 'visits.csv', text: CSV_TEXT }]);
    expect(await handle.readAttachment?.(image.attachmentId)).toEqual(PNG_BYTES);
    await finish(engine, runId);
    const run = (await (await (server as TestServer).request(`/runs/${runId}`)).json()) as RunResource;
    expect(run.messages[0]).toMatchObject({ role: 'user', attachments: [image, csv] });
    const log = JSON.stringify(await (storage as AgentStorage).readEvents(runId, 0));
    expect(log).toContain(image.attachmentId);
    expect(log).not.toContain('Lyon');
  });

  it('refuses a sixth file, an image for a model without image input, and another user’s file', async () => {
    await start(setup);
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      ids.push(
        (await uploaded('alice', { name: `f${index}.txt`, type: 'text/plain', bytes: `file ${index}` })).attachmentId,
      );
    }
    const sixth = await send('alice', ids);
    expect(sixth.status).toBe(422);
    expect(await sixth.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { limit: 'maxAttachmentsPerMessage', maxAttachmentsPerMessage: 5, actual: 6 },
    });
    const image = await uploaded('alice', { name: 'shot.png', type: 'image/png', bytes: PNG_BYTES });
    const blind = await send('alice', [image.attachmentId], { modelId: 'text-only' });
    expect(blind.status).toBe(422);
    expect(await blind.json()).toMatchObject({
      code: 'UNSUPPORTED_CONTENT',
      details: { mediaType: 'image/png', modelId: 'text-only' },
    });
    const stolen = await send('bob', [image.attachmentId]);
    expect(stolen.status).toBe(422);
    expect(await stolen.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: { reason: 'not_found' } });
  });

  it('deletes a conversation’s files with it, and leaves the others', async () => {
    const { engine, files } = await start(setup);
    const kept = await uploaded('alice', { name: 'kept.txt', type: 'text/plain', bytes: 'kept' });
    const image = await uploaded('alice', { name: 'shot.png', type: 'image/png', bytes: PNG_BYTES });
    const csv = await uploaded('alice', { name: 'visits.csv', type: 'text/csv', bytes: CSV_TEXT });
    const created = (await (await send('alice', [image.attachmentId, csv.attachmentId])).json()) as {
      runId: string;
      sessionId: string;
    };
    await finish(engine, created.runId);
    expect((await files()).length).toBeGreaterThanOrEqual(3);
    const removed = await (server as TestServer).request(`/sessions/${created.sessionId}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    for (const file of [image, csv]) {
      const served = await (server as TestServer).request(`/attachments/${file.attachmentId}`);
      expect(served.status).toBe(404);
    }
    const left = await files();
    expect(left.some((name) => name.startsWith(image.attachmentId) || name.startsWith(csv.attachmentId))).toBe(false);
    expect(left.some((name) => name.startsWith(kept.attachmentId))).toBe(true);
  });
});

describe('the directory store', () => {
  it('keeps its folders private to the server’s user (0700)', async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-attachments-'));
    const directory = join(folder, 'attachments');
    const store = openDirectoryAttachmentStore({ directory });
    await store.put(
      {
        attachmentId: 'att_1',
        name: 'a.txt',
        mediaType: 'text/plain',
        size: 1,
        ownerId: 'alice',
        sessionId: null,
        createdAt: 0,
      },
      Uint8Array.from([0x61]),
    );
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const [owner] = await readdir(directory);
    expect((await stat(join(directory, owner as string))).mode & 0o777).toBe(0o700);
    expect((await stat(join(directory, owner as string, 'att_1.bin'))).mode & 0o777).toBe(0o600);
    expect(await store.read('mallory', 'att_1')).toBeNull();
  });
});

describe('the directory store’s streamed writes', () => {
  const record = (attachmentId: string, size: number) => ({
    attachmentId,
    name: 'a.txt',
    mediaType: 'text/plain',
    size,
    ownerId: 'alice',
    sessionId: null,
    createdAt: 0,
  });

  it('keeps a file written chunk by chunk, and nothing of one whose chunks failed', async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-attachments-'));
    const directory = join(folder, 'attachments');
    const store = openDirectoryAttachmentStore({ directory });
    const encode = (text: string) => new TextEncoder().encode(text);
    await store.putStream?.(
      record('att_1', 11),
      (async function* () {
        yield encode('hello ');
        yield encode('world');
      })(),
    );
    expect(new TextDecoder().decode((await store.read('alice', 'att_1')) as Uint8Array)).toBe('hello world');
    const failed = store.putStream?.(
      record('att_2', 11),
      (async function* () {
        yield encode('half');
        throw new Error('the client left');
      })(),
    );
    await expect(failed).rejects.toThrow('the client left');
    const [owner] = await readdir(directory);
    expect((await readdir(join(directory, owner as string))).sort()).toEqual(['att_1.bin', 'att_1.json']);
    expect(await store.get('alice', 'att_2')).toBeNull();
    expect(await store.freeBytes?.()).toBeGreaterThan(0);
  });
});

describe('without an attachment store', () => {
  it('publishes no attachment limits and answers uploads 404', async () => {
    storage = createMemoryStorage();
    server = await startTestServer({ engine: createManualEngine(), storage });
    const body = (await (await server.request('/bootstrap')).json()) as BootstrapResponse;
    expect(body.capabilities.attachments).toEqual({ supported: false });
    expect(body.limits.maxAttachmentBytes).toBeUndefined();
    const response = await upload('alice', { name: 'a.txt', type: 'text/plain', bytes: 'a' });
    expect(response.status).toBe(404);
  });
});

describe('uploads that cannot fill memory or disk', () => {
  /** A body that never ends and counts the bytes pulled from it. */
  function endlessBody() {
    const watched = { pulledBytes: 0 };
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          watched.pulledBytes += 65_536;
          controller.enqueue(new Uint8Array(65_536).fill(0x61));
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, watched };
  }

  it('refuses an upload past its size, rate, quota or bytes per hour without reading its body, closing the connection', async () => {
    const handler = createAgentFetchHandler({
      engine: createManualEngine(),
      attachments: createMemoryAttachmentStore(),
      identityFor: (subject) => `idn_${subject.id}`,
      authenticate: (request) => ({ id: request.headers.get('x-test-user') ?? '', displayName: 'x' }),
      limits: {
        maxAttachmentBytes: 1_000_000,
        maxAttachmentBytesPerIdentity: 1_500_000,
        attachmentBytesPerHour: 1_000_000,
        attachmentsPerMinute: 3,
      },
      logLevel: 'silent',
    });
    const post = (user: string, declared: number, body: BodyInit) =>
      handler(
        new Request('http://127.0.0.1/api/agent/v1/attachments', {
          method: 'POST',
          body,
          duplex: 'half',
          headers: {
            'content-type': 'text/plain',
            'content-length': String(declared),
            'x-test-user': user,
            'x-agent-identity': `idn_${user}`,
          },
        } as RequestInit),
        { remoteAddress: '10.0.0.1' },
      );
    const refusedUnread = async (user: string, declared: number) => {
      const { stream, watched } = endlessBody();
      const response = await post(user, declared, stream);
      expect(watched.pulledBytes).toBe(0);
      expect(response.headers.get('connection')).toBe('close');
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
    };
    try {
      expect(await refusedUnread('alice', 2_000_000_000)).toMatchObject({
        status: 413,
        body: { code: 'PAYLOAD_TOO_LARGE', details: { limit: 'maxAttachmentBytes' } },
      });
      expect((await post('alice', 600_000, new Uint8Array(600_000).fill(0x61))).status).toBe(201);
      expect(await refusedUnread('alice', 1_000_000)).toMatchObject({
        status: 413,
        body: { code: 'ATTACHMENT_QUOTA_EXCEEDED', details: { heldBytes: 600_000 } },
      });
      // Four attempts in a minute: the fourth is refused on its rate alone.
      expect(await refusedUnread('alice', 10)).toMatchObject({
        status: 429,
        retryAfter: expect.stringMatching(/^\d+$/),
        body: { code: 'RATE_LIMITED', details: { limit: 'attachmentsPerMinute' } },
      });
      expect((await post('bob', 600_000, new Uint8Array(600_000).fill(0x61))).status).toBe(201);
      expect(await refusedUnread('bob', 500_000)).toMatchObject({
        status: 429,
        retryAfter: expect.stringMatching(/^\d+$/),
        body: { code: 'RATE_LIMITED', details: { limit: 'attachmentBytesPerHour' } },
      });
    } finally {
      await handler.close();
    }
  });

  it('answers a refused upload at once over HTTP, while its declared body was never sent', async () => {
    storage = createMemoryStorage();
    server = await startTestServer({
      engine: createManualEngine(),
      storage,
      attachments: createMemoryAttachmentStore(),
      identityFor: (subject) => `idn_${subject.id}`,
      limits: { attachmentsPerMinute: 1 },
    });
    await uploaded('alice', { name: 'a.txt', type: 'text/plain', bytes: 'a' });
    const answer = await sendRawHttp(
      server.port,
      [
        'POST /api/agent/v1/attachments HTTP/1.1',
        'Host: x',
        'Content-Type: text/plain',
        `Content-Length: ${5 * 1024 * 1024}`,
        'X-Test-User: alice',
        'X-Agent-Identity: idn_alice',
        '',
        '',
      ].join('\r\n'),
    );
    expect(answer.status).toBe(429);
    expect(answer.headers.connection).toBe('close');
    expect(answer.isClosed).toBe(true);
  });

  it('holds a network client to its uploads at once, and frees the slot and the disk when an upload is cut', async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-attachments-'));
    const directory = join(folder, 'attachments');
    storage = createMemoryStorage();
    server = await startTestServer({
      engine: createManualEngine(),
      storage,
      attachments: openDirectoryAttachmentStore({ directory }),
      identityFor: (subject) => `idn_${subject.id}`,
      attachmentCaps: { maxUploadsPerClient: 1 },
    });
    const temporaryFiles = async () => {
      const owners = await readdir(directory);
      const names = await Promise.all(owners.map((owner) => readdir(join(directory, owner))));
      return names.flat().filter((name) => name.endsWith('.tmp'));
    };
    const socket = await openRawSocket(server.port);
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /api/agent/v1/attachments HTTP/1.1',
        'Host: x',
        'Content-Type: text/plain',
        'Content-Length: 1000',
        'X-Test-User: carol',
        'X-Agent-Identity: idn_carol',
        '',
        'the first bytes of a file that never ends',
      ].join('\r\n'),
    );
    await waitUntil(async () => (await temporaryFiles()).length === 1, 'the upload is being written');
    const second = await upload('bob', { name: 'b.txt', type: 'text/plain', bytes: 'b' });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(await second.json()).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxUploadsPerClient', maxUploadsPerClient: 1 },
    });
    socket.destroy();
    const active = server;
    await waitUntil(async () => active.handler.stats().bodies === 0, 'the cut upload is over');
    expect(await temporaryFiles()).toEqual([]);
    await uploaded('bob', { name: 'b.txt', type: 'text/plain', bytes: 'b' });
  });

  it('refuses uploads with 503 STORAGE_FULL past the store’s cap, and keeps creating runs', async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-attachments-'));
    storage = openSqliteStorage({ path: join(folder, 'agent-chat.sqlite') });
    server = await startTestServer({
      engine: createManualEngine(),
      storage,
      attachments: openDirectoryAttachmentStore({ directory: join(folder, 'attachments') }),
      models: [VISION_MODEL, TEXT_MODEL],
      limits: { maxAttachmentBytes: 1_000 },
      attachmentCaps: { maxAttachmentStoreBytes: 1_000 },
    });
    const kept = await uploaded('alice', { name: 'a.csv', type: 'text/csv', bytes: 'a,b\n'.repeat(200) });
    const full = await upload('bob', { name: 'b.txt', type: 'text/plain', bytes: 'b'.repeat(300) });
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('30');
    expect(await full.json()).toMatchObject({ code: 'STORAGE_FULL', details: { limit: 'maxAttachmentStoreBytes' } });
    await server.createRun('bob', 'No files, still an answer');
    const created = await send('alice', [kept.attachmentId]);
    expect(created.status).toBe(201);
  });

  it('creates a run that names no file without touching an attachment store that cannot write', async () => {
    const inner = createMemoryAttachmentStore();
    const calls: string[] = [];
    const noRoom = (): never => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    };
    const attachments: AttachmentStore = {
      put: async () => noRoom(),
      putStream: async () => noRoom(),
      get: async (...args) => (calls.push('get'), inner.get(...args)),
      read: async (...args) => (calls.push('read'), inner.read(...args)),
      update: async () => noRoom(),
      delete: async (...args) => (calls.push('delete'), inner.delete(...args)),
      // The sweep lists every owner's files now and then; a create would list one owner's.
      list: async (ownerId) => (ownerId === undefined || calls.push('list'), inner.list(ownerId)),
    };
    storage = createMemoryStorage();
    server = await startTestServer({ engine: createManualEngine(), storage, attachments });
    const refused = await upload('alice', { name: 'a.txt', type: 'text/plain', bytes: 'a' });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'STORAGE_FULL' });
    calls.length = 0;
    await server.createRun('alice', 'Hello without files');
    expect(calls).toEqual([]);
  });
});

/** Waits until `condition` holds (expect.poll, every few ms, up to 4 s). */
async function waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 4_000, interval: 5 }).toBe(true);
}
