import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, statfs, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AttachmentStore, StoredAttachment } from './attachment-store.ts';

/** Options of {@link openDirectoryAttachmentStore}. */
export interface DirectoryAttachmentStoreOptions {
  /** The directory the files live in; created (mode 0700) when missing. */
  directory: string;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An {@link AttachmentStore} in a directory of this machine (the default beside the SQLite file,
 * docs/server.md "Attachments"): one folder per owner (named by a hash of the owner's id), a file's
 * bytes in `<id>.bin` and its record in `<id>.json`, folders 0700 and files 0600. An upload is
 * written to its temporary file chunk by chunk as it arrives (`putStream`), and the disk's free
 * bytes are read with `statfs` (`freeBytes`). One process, or several sharing the directory;
 * several machines need a shared store.
 */
export function openDirectoryAttachmentStore(options: DirectoryAttachmentStoreOptions): AttachmentStore {
  const root = options.directory;
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const folderOf = (ownerId: string): string =>
    join(root, createHash('sha256').update(ownerId).digest('hex').slice(0, 32));
  const pathOf = (ownerId: string, attachmentId: string, extension: 'bin' | 'json'): string | null =>
    ID_PATTERN.test(attachmentId) ? join(folderOf(ownerId), `${attachmentId}.${extension}`) : null;

  /** Writes through a temporary file and a rename, so a reader never sees half a file. */
  const writeWhole = async (path: string, data: Uint8Array | string): Promise<void> => {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, data, { mode: 0o600 });
    await rename(temporary, path);
  };
  const readRecord = async (path: string): Promise<StoredAttachment | null> => {
    const text = await readFile(path, 'utf8').catch(ignoreMissing);
    return text === null ? null : (JSON.parse(text) as StoredAttachment);
  };

  const pathsOf = (attachment: StoredAttachment): { binPath: string; recordPath: string } => {
    const binPath = pathOf(attachment.ownerId, attachment.attachmentId, 'bin');
    const recordPath = pathOf(attachment.ownerId, attachment.attachmentId, 'json');
    if (binPath === null || recordPath === null) throw new TypeError('An attachment id is [A-Za-z0-9_-]{1,64}.');
    return { binPath, recordPath };
  };
  /** Writes `chunks` one at a time to a temporary file renamed to `path` once they all arrived; removed if they fail. */
  const writeChunks = async (path: string, chunks: AsyncIterable<Uint8Array>): Promise<void> => {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      try {
        for await (const chunk of chunks) {
          for (let offset = 0; offset < chunk.byteLength;) {
            offset += (await file.write(chunk, offset, chunk.byteLength - offset)).bytesWritten;
          }
        }
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  };

  return {
    async put(attachment, bytes) {
      const { binPath, recordPath } = pathsOf(attachment);
      // The bytes first: a record always has its bytes.
      await writeWhole(binPath, bytes);
      await writeWhole(recordPath, JSON.stringify(attachment));
    },
    async putStream(attachment, chunks) {
      const { binPath, recordPath } = pathsOf(attachment);
      await writeChunks(binPath, chunks);
      await writeWhole(recordPath, JSON.stringify(attachment));
    },
    async freeBytes() {
      const stats = await statfs(root);
      return stats.bavail * stats.bsize;
    },
    async get(ownerId, attachmentId) {
      const path = pathOf(ownerId, attachmentId, 'json');
      const record = path === null ? null : await readRecord(path);
      return record?.ownerId === ownerId ? record : null;
    },
    async read(ownerId, attachmentId) {
      if ((await this.get(ownerId, attachmentId)) === null) return null;
      const path = pathOf(ownerId, attachmentId, 'bin');
      const bytes = path === null ? null : await readFile(path).catch(ignoreMissing);
      return bytes === null ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async update(attachment) {
      const path = pathOf(attachment.ownerId, attachment.attachmentId, 'json');
      if (path === null || (await readRecord(path)) === null) return;
      await writeWhole(path, JSON.stringify(attachment));
    },
    async delete(ownerId, attachmentId) {
      const recordPath = pathOf(ownerId, attachmentId, 'json');
      const binPath = pathOf(ownerId, attachmentId, 'bin');
      if (recordPath === null || binPath === null) return;
      // The record first: bytes without a record are never served.
      await rm(recordPath, { force: true });
      await rm(binPath, { force: true });
    },
    async list(ownerId) {
      const folders = ownerId === undefined ? await subfolders(root) : [folderOf(ownerId)];
      const records: StoredAttachment[] = [];
      for (const folder of folders) {
        const names = await readdir(folder).catch((error: unknown) => ignoreMissing(error) ?? []);
        for (const name of names) {
          if (!name.endsWith('.json')) continue;
          const record = await readRecord(join(folder, name));
          if (record !== null && (ownerId === undefined || record.ownerId === ownerId)) records.push(record);
        }
      }
      return records;
    },
  };
}

async function subfolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => join(root, entry.name));
}

/** A file that is not there reads as null; any other failure is thrown. */
function ignoreMissing(error: unknown): null {
  if ((error as { code?: unknown }).code === 'ENOENT') return null;
  throw error;
}
