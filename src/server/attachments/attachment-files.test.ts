import { describe, expect, it } from 'vitest';
import type { AttachmentLimits } from '../../core/protocol.ts';
import { DEFAULT_ATTACHMENT_CAPS, DEFAULT_ATTACHMENT_LIMITS } from '../agent-handler-defaults.ts';
import { DomainError } from '../domain-error.ts';
import type { UploadBody } from './attachment-files.ts';
import { cleanFileName, createAttachmentFiles } from './attachment-files.ts';
import type { AttachmentStore } from './attachment-store.ts';
import { createMemoryAttachmentStore } from './memory-attachment-store.ts';
import type { AttachmentCaps } from './upload-admission.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
const TEN_MINUTES_MS = 10 * MINUTE_MS;

/** An upload body of `bytes`, declared (`Content-Length`) unless `isChunked`. */
function bodyOf(bytes: Uint8Array, isChunked = false): UploadBody {
  return {
    declaredBytes: isChunked ? null : bytes.byteLength,
    async *chunks() {
      yield bytes;
    },
  };
}

/** A body that says how many of its chunks were pulled and, until `open()`, holds the first one back. */
function watchedBody(declaredBytes: number | null, chunks: readonly Uint8Array[]) {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const watched = { pulls: 0, isHeld: false, open };
  const body: UploadBody = {
    declaredBytes,
    async *chunks() {
      watched.isHeld = true;
      await opened;
      for (const chunk of chunks) {
        watched.pulls += 1;
        yield chunk;
      }
    },
  };
  return { body, watched };
}

/** A body of `size` bytes of text (declared), held back until opened. */
const pendingText = (size: number) => watchedBody(size, [new Uint8Array(size).fill(0x61)]);

/** Waits until `condition` holds (expect.poll, every few ms, up to 2 s). */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 2_000, interval: 5 }).toBe(true);
}

function setup(
  options: { limits?: Partial<AttachmentLimits>; caps?: Partial<AttachmentCaps>; store?: AttachmentStore } = {},
) {
  let now = 1_000_000;
  let counter = 0;
  const store = options.store ?? createMemoryAttachmentStore();
  const files = createAttachmentFiles({
    store,
    limits: { ...DEFAULT_ATTACHMENT_LIMITS, ...options.limits },
    caps: { ...DEFAULT_ATTACHMENT_CAPS, ...options.caps },
    ids: (prefix) => `${prefix}_${(counter += 1)}`,
    now: () => now,
    unsentTtlMs: DAY_MS,
    unsentTtlWhenShortMs: TEN_MINUTES_MS,
    capacityRetryAfterMs: 5_000,
  });
  const send = (ownerId: string, body: UploadBody, client = '127.0.0.1') =>
    files.upload({
      ownerId,
      identityId: `idn_${ownerId}`,
      client,
      name: 'notes.txt',
      declaredType: 'text/plain',
      body,
    });
  const text = (ownerId: string, name: string) =>
    files.upload({
      ownerId,
      identityId: `idn_${ownerId}`,
      client: '127.0.0.1',
      name,
      declaredType: 'text/plain',
      body: bodyOf(new TextEncoder().encode(name)),
    });
  /** Uploads `size` bytes of text for `ownerId` from `client`. */
  const bytes = (ownerId: string, size: number, client = '127.0.0.1') =>
    send(ownerId, bodyOf(new Uint8Array(size).fill(0x61)), client);
  const held = async () => (await store.list()).reduce((sum, file) => sum + file.size, 0);
  return { store, files, text, send, bytes, held, advance: (ms: number) => (now += ms) };
}

describe('createAttachmentFiles', () => {
  it('sweeps uploads no send named within a day and files whose session is gone, keeping the rest', async () => {
    const { store, files, text, advance } = setup();
    const unsent = await text('alice', 'unsent.txt');
    const kept = await text('alice', 'kept.txt');
    const evicted = await text('alice', 'evicted.txt');
    await files.bind([kept], 'ses_live');
    await files.bind([evicted], 'ses_gone');
    advance(DAY_MS - 1);
    const fresh = await text('alice', 'fresh.txt');
    advance(2);
    await files.sweep(async (sessionId) => sessionId === 'ses_live');
    const left = (await store.list()).map((file) => file.attachmentId).sort();
    expect(left).toEqual([fresh.attachmentId, kept.attachmentId].sort());
    expect(left).not.toContain(unsent.attachmentId);
    expect(left).not.toContain(evicted.attachmentId);
  });

  it('deletes only the owner’s files of the session', async () => {
    const { store, files, text } = setup();
    const mine = await text('alice', 'a.txt');
    const theirs = await text('bob', 'b.txt');
    await files.bind([mine], 'ses_1');
    await files.bind([theirs], 'ses_1');
    await files.deleteForSession('alice', 'ses_1');
    expect((await store.list()).map((file) => file.ownerId)).toEqual(['bob']);
  });

  it('refuses a type off the list as a domain refusal, storing nothing', async () => {
    const { store, files } = setup();
    const refused = files.upload({
      ownerId: 'alice',
      identityId: 'idn_alice',
      client: '127.0.0.1',
      name: 'page.html',
      declaredType: 'text/html',
      body: bodyOf(new TextEncoder().encode('<p>hi</p>')),
    });
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    expect(await store.list()).toEqual([]);
  });
});

describe('an upload is checked before a byte of it is read', () => {
  const refusals: {
    title: string;
    options?: Parameters<typeof setup>[0];
    before?: (files: ReturnType<typeof setup>) => Promise<unknown>;
    size: number;
    type?: string;
    refusal: Record<string, unknown>;
  }[] = [
    {
      title: 'a declared size past maxAttachmentBytes',
      options: { limits: { maxAttachmentBytes: 1_000 } },
      size: 1_001,
      refusal: { code: 'PAYLOAD_TOO_LARGE', details: { limit: 'maxAttachmentBytes', maxAttachmentBytes: 1_000 } },
    },
    {
      title: 'a type off the list',
      size: 10,
      type: 'application/pdf',
      refusal: { code: 'ATTACHMENT_TYPE_UNSUPPORTED', details: { reason: 'not_allowed' } },
    },
    {
      title: 'the quota, with what the owner holds',
      options: { limits: { maxAttachmentBytes: 1_000, maxAttachmentBytesPerIdentity: 1_000 } },
      before: (files) => files.bytes('alice', 900),
      size: 101,
      refusal: { code: 'ATTACHMENT_QUOTA_EXCEEDED', details: { heldBytes: 900 } },
    },
    {
      title: 'the identity’s bytes this hour',
      options: { limits: { maxAttachmentBytes: 1_000, attachmentBytesPerHour: 1_000 } },
      before: (files) => files.bytes('alice', 900, '10.0.0.9'),
      size: 101,
      refusal: {
        code: 'RATE_LIMITED',
        retryAfterMs: 3_600,
        details: { limit: 'attachmentBytesPerHour', attachmentBytesPerHour: 1_000 },
      },
    },
    {
      title: 'the network client’s bytes this hour',
      options: { limits: { maxAttachmentBytes: 1_000 }, caps: { attachmentBytesPerHourPerClient: 1_000 } },
      before: (files) => files.bytes('bob', 900),
      size: 101,
      refusal: { code: 'RATE_LIMITED', details: { limit: 'attachmentBytesPerHourPerClient' } },
    },
    {
      title: 'the store’s cap, with every owner’s files',
      options: { limits: { maxAttachmentBytes: 1_000 }, caps: { maxAttachmentStoreBytes: 1_000 } },
      before: (files) => files.bytes('bob', 900, '10.0.0.9'),
      size: 101,
      refusal: { code: 'STORAGE_FULL', retryAfterMs: 30_000, details: { limit: 'maxAttachmentStoreBytes' } },
    },
    {
      title: 'the disk’s free bytes',
      options: {
        caps: { minFreeDiskBytes: 1_000 },
        store: { ...createMemoryAttachmentStore(), freeBytes: async () => 1_500 },
      },
      size: 501,
      refusal: { code: 'STORAGE_FULL', details: { limit: 'minFreeDiskBytes' } },
    },
  ];
  for (const { title, options, before, size, type, refusal } of refusals) {
    it(`refuses ${title}`, async () => {
      const files = setup(options);
      await before?.(files);
      const stored = await files.held();
      const { body, watched } = pendingText(size);
      // Open, so that an upload wrongly let through ends at once instead of waiting.
      watched.open();
      const upload = files.files.upload({
        ownerId: 'alice',
        identityId: 'idn_alice',
        client: '127.0.0.1',
        name: 'notes.txt',
        declaredType: type ?? 'text/plain',
        body,
      });
      await expect(upload).rejects.toMatchObject({ init: refusal });
      expect(watched.isHeld).toBe(false);
      expect(await files.held()).toBe(stored);
    });
  }

  it('takes one byte less than each limit', async () => {
    const files = setup({
      limits: { maxAttachmentBytes: 1_000, maxAttachmentBytesPerIdentity: 1_000, attachmentBytesPerHour: 1_000 },
      caps: { attachmentBytesPerHourPerClient: 1_000, maxAttachmentStoreBytes: 1_000 },
    });
    await files.bytes('alice', 900);
    await files.bytes('alice', 100);
    expect(await files.held()).toBe(1_000);
  });

  it('will not start with an hour’s bytes smaller than one file', () => {
    expect(() => setup({ limits: { maxAttachmentBytes: 2_000, attachmentBytesPerHour: 1_000 } })).toThrow(
      'attachmentBytesPerHour (1000) must be at least maxAttachmentBytes (2000)',
    );
    expect(() =>
      setup({ limits: { maxAttachmentBytes: 2_000 }, caps: { attachmentBytesPerHourPerClient: 1_000 } }),
    ).toThrow(RangeError);
  });
});

describe('uploads at once', () => {
  it('holds each network client, identity and the process to its uploads at once, until one ends', async () => {
    const files = setup({ caps: { maxUploads: 3, maxUploadsPerClient: 2, maxUploadsPerIdentity: 2 } });
    const first = pendingText(10);
    const second = pendingText(10);
    const uploads = [files.send('alice', first.body, '10.0.0.1'), files.send('alice', second.body, '10.0.0.1')];
    await waitFor(() => first.watched.isHeld && second.watched.isHeld, 'two uploads are being read');
    const refusedAt = async (ownerId: string, client: string) => {
      const { body, watched } = pendingText(10);
      watched.open();
      const error = await files.send(ownerId, body, client).catch((caught: unknown) => caught);
      expect(watched.isHeld).toBe(false);
      return (error as DomainError).init;
    };
    expect(await refusedAt('bob', '10.0.0.1')).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterMs: 5_000,
      details: { limit: 'maxUploadsPerClient', maxUploadsPerClient: 2 },
    });
    expect(await refusedAt('alice', '10.0.0.2')).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'maxUploadsPerIdentity', maxUploadsPerIdentity: 2 },
    });
    const third = pendingText(10);
    uploads.push(files.send('bob', third.body, '10.0.0.2'));
    await waitFor(() => third.watched.isHeld, 'a third upload is being read');
    expect(await refusedAt('carol', '10.0.0.3')).toMatchObject({
      code: 'AGENT_UNAVAILABLE',
      retryAfterMs: 5_000,
      details: { reason: 'capacity', limit: 'maxUploads', maxUploads: 3 },
    });
    first.watched.open();
    await uploads[0];
    await files.bytes('carol', 10, '10.0.0.3');
    second.watched.open();
    third.watched.open();
    await Promise.all(uploads);
    expect(await files.held()).toBe(40);
  });

  it('lets two uploads at once pass the quota only when both fit', async () => {
    const files = setup({ limits: { maxAttachmentBytes: 1_000, maxAttachmentBytesPerIdentity: 1_000 } });
    const first = pendingText(600);
    const second = pendingText(600);
    const both = [files.send('alice', first.body), files.send('alice', second.body)];
    first.watched.open();
    second.watched.open();
    const outcomes = await Promise.allSettled(both);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ init: { code: 'ATTACHMENT_QUOTA_EXCEEDED', details: { heldBytes: 600 } } });
    expect(await files.held()).toBe(600);
    // Once it is over the bytes it reserved are held by the stored file, and the quota counts them so.
    await expect(files.bytes('alice', 401)).rejects.toMatchObject({
      init: { code: 'ATTACHMENT_QUOTA_EXCEEDED', details: { heldBytes: 600 } },
    });
    await files.bytes('alice', 400);
  });
});

describe('bytes per hour', () => {
  it('refuses an identity’s and a network client’s bytes past their hour, and takes them again as it refills', async () => {
    const files = setup({
      limits: { maxAttachmentBytes: 1_000, attachmentBytesPerHour: 2_000 },
      caps: { attachmentBytesPerHourPerClient: 3_000 },
    });
    await files.bytes('alice', 1_000, '10.0.0.1');
    await files.bytes('alice', 1_000, '10.0.0.2');
    // 1,000 bytes over 2,000 an hour: half an hour.
    await expect(files.bytes('alice', 1_000, '10.0.0.3')).rejects.toMatchObject({
      init: { code: 'RATE_LIMITED', retryAfterMs: 30 * MINUTE_MS, details: { limit: 'attachmentBytesPerHour' } },
    });
    // 10.0.0.1 has sent 1,000 of its 3,000: two more identities may send 1,000 each from it.
    await files.bytes('bob', 1_000, '10.0.0.1');
    await files.bytes('carol', 1_000, '10.0.0.1');
    // 1 byte over 3,000 an hour: 1.2 s.
    await expect(files.bytes('dave', 1, '10.0.0.1')).rejects.toMatchObject({
      init: {
        code: 'RATE_LIMITED',
        retryAfterMs: 1_200,
        details: { limit: 'attachmentBytesPerHourPerClient', attachmentBytesPerHourPerClient: 3_000 },
      },
    });
    await files.bytes('dave', 1_000, '10.0.0.4');
    files.advance(30 * MINUTE_MS);
    await files.bytes('alice', 1_000, '10.0.0.1');
  });

  it('counts an upload’s bytes as received: a refused one only what was read, an undeclared one its size', async () => {
    const files = setup({ limits: { maxAttachmentBytes: 1_000, attachmentBytesPerHour: 2_000 } });
    const text = new Uint8Array(300).fill(0x61);
    const binary = new Uint8Array(300);
    const { body, watched } = watchedBody(900, [text, binary, text]);
    watched.open();
    await expect(files.send('alice', body)).rejects.toMatchObject({
      init: { code: 'ATTACHMENT_TYPE_UNSUPPORTED', details: { reason: 'content_mismatch' } },
    });
    // It stopped at the chunk that was not text.
    expect(watched.pulls).toBe(2);
    expect(await files.held()).toBe(0);
    const unsized = await files.send('alice', bodyOf(new Uint8Array(100).fill(0x62), true));
    expect(unsized.size).toBe(100);
    // 600 + 100 of 2,000 used.
    await files.bytes('alice', 1_000);
    await expect(files.bytes('alice', 301)).rejects.toMatchObject({ init: { code: 'RATE_LIMITED' } });
    await files.bytes('alice', 300);
  });
});

describe('room in the store', () => {
  it('counts the files already there, refuses past the cap, and sweeps unsent uploads after 10 minutes while room is short', async () => {
    const store = createMemoryAttachmentStore();
    const old = { attachmentId: 'att_old', name: 'old.txt', mediaType: 'text/plain', ownerId: 'zoe', sessionId: null };
    await store.put({ ...old, size: 300, createdAt: 1_000_000 }, new Uint8Array(300));
    const files = setup({ store, limits: { maxAttachmentBytes: 1_000 }, caps: { maxAttachmentStoreBytes: 1_000 } });
    await files.bytes('alice', 300);
    // 600 of 1,000: not short, so the sweep keeps unsent uploads for a day.
    files.advance(TEN_MINUTES_MS + 1);
    await files.files.sweep(async () => true);
    expect(await files.held()).toBe(600);
    await files.bytes('bob', 300);
    await expect(files.bytes('carol', 101)).rejects.toMatchObject({
      init: { code: 'STORAGE_FULL', retryAfterMs: 30_000, details: { limit: 'maxAttachmentStoreBytes' } },
    });
    // 900 of 1,000 is past 80 %: uploads unsent for 10 minutes go, bob's fresh one and sent files stay.
    const sent = await files.bytes('carol', 100);
    await files.files.bind([sent], 'ses_1');
    await files.files.sweep(async () => true);
    expect((await store.list()).map((file) => file.ownerId).sort()).toEqual(['bob', 'carol']);
    await files.bytes('dave', 600);
  });

  it('sweeps sooner while the disk is short of twice its floor', async () => {
    let free = 10_000;
    const store = { ...createMemoryAttachmentStore(), freeBytes: async () => free };
    const files = setup({ store, caps: { minFreeDiskBytes: 1_000 } });
    await files.bytes('alice', 100);
    files.advance(TEN_MINUTES_MS + 1);
    await files.files.sweep(async () => true);
    expect(await files.held()).toBe(100);
    free = 1_999;
    await files.files.sweep(async () => true);
    expect(await files.held()).toBe(0);
  });
});

describe('cleanFileName', () => {
  it('keeps the last path segment without control characters, and names an empty one file', () => {
    expect(cleanFileName('C:\\Users\\me\\report.csv')).toBe('report.csv');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('x'.repeat(300))).toHaveLength(255);
  });
});
