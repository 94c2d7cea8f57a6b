import type { AttachmentRef } from '../../core/protocol.ts';

/** A file as the store keeps it: what the protocol shows of it, whose it is and which conversation holds it. */
export interface StoredAttachment extends AttachmentRef {
  /** The subject that uploaded it: the only one it is ever served to. */
  ownerId: string;
  /** The conversation whose message carries it; null until a send names it. */
  sessionId: string | null;
  /** Epoch ms of the upload. */
  createdAt: number;
}

/**
 * Where uploaded files are kept (docs/server.md, "Attachments"): records and bytes keyed by owner
 * and id, so an object store (S3-style: one object per file, its record as metadata or a sibling
 * object, listed by owner prefix) is one small file. Every method is scoped to an owner except
 * {@link AttachmentStore.list} without one (the sweep's walk over everything). The two optional
 * ones let a store on a disk take uploads without holding them in memory and stop before the disk
 * is full.
 */
export interface AttachmentStore {
  /** Keeps a new file (its id is new). */
  put(attachment: StoredAttachment, bytes: Uint8Array): Promise<void>;
  /**
   * Keeps a new file whose `attachment.size` bytes arrive as `chunks`, holding one chunk at a time;
   * when `chunks` throws (the upload was refused or cut) nothing of it is kept. Optional: without
   * it the handler collects an upload's bytes (at most `maxAttachmentBytes`) and calls `put`.
   */
  putStream?(attachment: StoredAttachment, chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /** Bytes still free where the files are kept (the disk), so uploads stop short of filling it. Optional. */
  freeBytes?(): Promise<number>;
  /** The owner's file's record, or null (also for another owner's id). */
  get(ownerId: string, attachmentId: string): Promise<StoredAttachment | null>;
  /** The owner's file's bytes, or null. */
  read(ownerId: string, attachmentId: string): Promise<Uint8Array | null>;
  /** Replaces the record of a kept file (to bind it to its conversation); no-op for a missing one. */
  update(attachment: StoredAttachment): Promise<void>;
  /** Forgets a file, record and bytes; no-op for a missing one. */
  delete(ownerId: string, attachmentId: string): Promise<void>;
  /** The owner's files, or every owner's when `ownerId` is undefined. */
  list(ownerId?: string): Promise<StoredAttachment[]>;
}
