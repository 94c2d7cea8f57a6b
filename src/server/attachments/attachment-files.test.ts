import { describe, expect, it } from 'vitest';
import { DEFAULT_ATTACHMENT_LIMITS } from '../agent-handler-defaults.ts';
import { DomainError } from '../domain-error.ts';
import { cleanFileName, createAttachmentFiles } from './attachment-files.ts';
import { createMemoryAttachmentStore } from './memory-attachment-store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function setup() {
  let now = 1_000_000;
  let counter = 0;
  const store = createMemoryAttachmentStore();
  const files = createAttachmentFiles({
    store,
    limits: DEFAULT_ATTACHMENT_LIMITS,
    ids: (prefix) => `${prefix}_${(counter += 1)}`,
    now: () => now,
    unsentTtlMs: DAY_MS,
  });
  const text = (ownerId: string, name: string) =>
    files.upload({ ownerId, name, declaredType: 'text/plain', bytes: new TextEncoder().encode(name) });
  return { store, files, text, advance: (ms: number) => (now += ms) };
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
      name: 'page.html',
      declaredType: 'text/html',
      bytes: new TextEncoder().encode('<p>hi</p>'),
    });
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    expect(await store.list()).toEqual([]);
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
