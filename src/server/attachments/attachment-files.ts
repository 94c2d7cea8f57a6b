import type { AttachmentLimits } from '../../core/protocol.ts';
import { refuse } from '../domain-error.ts';
import type { AttachmentStore, StoredAttachment } from './attachment-store.ts';
import { verifyMediaType } from './verify-media-type.ts';

/** Options of {@link createAttachmentFiles}. */
export interface AttachmentFilesOptions {
  store: AttachmentStore;
  limits: AttachmentLimits;
  ids: (prefix: string) => string;
  now: () => number;
  /** An upload no send named within this long is deleted by the sweep. */
  unsentTtlMs: number;
}

/** The attachments of every conversation, over the store: uploads checked at the edge, binding, deletion. */
export interface AttachmentFiles {
  readonly limits: AttachmentLimits;
  /**
   * Keeps an uploaded file after its checks: its type against the allow-list and its bytes
   * (`ATTACHMENT_TYPE_UNSUPPORTED`) and the owner's quota (`ATTACHMENT_QUOTA_EXCEEDED`); the
   * size was checked while it was read.
   */
  upload(file: { ownerId: string; name: string; declaredType: string; bytes: Uint8Array }): Promise<StoredAttachment>;
  /** The owner's file, or null (another owner's file is null too). */
  find(ownerId: string, attachmentId: string): Promise<StoredAttachment | null>;
  /** The owner's file's bytes, or null. */
  read(ownerId: string, attachmentId: string): Promise<Uint8Array | null>;
  /** Marks the files as carried by a message of the session, so deleting the session deletes them. */
  bind(files: readonly StoredAttachment[], sessionId: string): Promise<void>;
  /** Deletes the files of the owner's session. */
  deleteForSession(ownerId: string, sessionId: string): Promise<void>;
  /** Deletes uploads never sent within the TTL and files whose session is gone (evicted or deleted). */
  sweep(sessionExists: (sessionId: string) => Promise<boolean>): Promise<void>;
}

const MAX_NAME_CHARS = 255;

/** Creates the attachment files over `options.store` (docs/server.md, "Attachments"). */
export function createAttachmentFiles(options: AttachmentFilesOptions): AttachmentFiles {
  const { store, limits } = options;
  return {
    limits,
    async upload(file) {
      const name = cleanFileName(file.name);
      const check = verifyMediaType({
        declaredType: file.declaredType,
        name,
        bytes: file.bytes,
        allowed: limits.attachmentTypes,
      });
      if (check.kind === 'refused') {
        return refuse({
          code: 'ATTACHMENT_TYPE_UNSUPPORTED',
          detail:
            check.reason === 'not_allowed'
              ? `Files of type ${check.mediaType} are not accepted.`
              : `The file is not the ${check.mediaType} it says it is.`,
          details: { mediaType: check.mediaType, reason: check.reason, attachmentTypes: limits.attachmentTypes },
        });
      }
      const held = (await store.list(file.ownerId)).reduce((sum, kept) => sum + kept.size, 0);
      if (held + file.bytes.byteLength > limits.maxAttachmentBytesPerIdentity) {
        return refuse({
          code: 'ATTACHMENT_QUOTA_EXCEEDED',
          detail: `Your files may take at most ${limits.maxAttachmentBytesPerIdentity} bytes; delete a conversation to make room.`,
          details: {
            limit: 'maxAttachmentBytesPerIdentity',
            maxAttachmentBytesPerIdentity: limits.maxAttachmentBytesPerIdentity,
            heldBytes: held,
          },
        });
      }
      const attachment: StoredAttachment = {
        attachmentId: options.ids('att'),
        name,
        mediaType: check.mediaType,
        size: file.bytes.byteLength,
        ownerId: file.ownerId,
        sessionId: null,
        createdAt: options.now(),
      };
      await store.put(attachment, file.bytes);
      return attachment;
    },
    find: (ownerId, attachmentId) => store.get(ownerId, attachmentId),
    read: (ownerId, attachmentId) => store.read(ownerId, attachmentId),
    async bind(files, sessionId) {
      for (const file of files) {
        if (file.sessionId !== sessionId) await store.update({ ...file, sessionId });
      }
    },
    async deleteForSession(ownerId, sessionId) {
      for (const file of await store.list(ownerId)) {
        if (file.sessionId === sessionId) await store.delete(ownerId, file.attachmentId);
      }
    },
    async sweep(sessionExists) {
      const unsentBefore = options.now() - options.unsentTtlMs;
      const known = new Map<string, boolean>();
      for (const file of await store.list()) {
        let isKept: boolean;
        if (file.sessionId === null) isKept = file.createdAt >= unsentBefore;
        else {
          isKept = known.get(file.sessionId) ?? (await sessionExists(file.sessionId));
          known.set(file.sessionId, isKept);
        }
        if (!isKept) await store.delete(file.ownerId, file.attachmentId);
      }
    },
  };
}

/**
 * A file name fit to show and to put in `Content-Disposition`: the last path segment, without
 * control characters, at most 255 characters; `file` when nothing is left.
 */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[\\/]/).at(-1) ?? '';
  const cleaned = last
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, MAX_NAME_CHARS);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}
