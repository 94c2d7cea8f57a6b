import type { AttachmentStore, StoredAttachment } from './attachment-store.ts';

/** An {@link AttachmentStore} in this process's memory (tests, demos): nothing survives the process. */
export function createMemoryAttachmentStore(): AttachmentStore {
  const files = new Map<string, { record: StoredAttachment; bytes: Uint8Array }>();
  const keyOf = (ownerId: string, attachmentId: string): string => `${ownerId}\u0000${attachmentId}`;
  return {
    async put(attachment, bytes) {
      files.set(keyOf(attachment.ownerId, attachment.attachmentId), {
        record: { ...attachment },
        bytes: bytes.slice(),
      });
    },
    async get(ownerId, attachmentId) {
      const file = files.get(keyOf(ownerId, attachmentId));
      return file === undefined ? null : { ...file.record };
    },
    async read(ownerId, attachmentId) {
      return files.get(keyOf(ownerId, attachmentId))?.bytes.slice() ?? null;
    },
    async update(attachment) {
      const file = files.get(keyOf(attachment.ownerId, attachment.attachmentId));
      if (file !== undefined) file.record = { ...attachment };
    },
    async delete(ownerId, attachmentId) {
      files.delete(keyOf(ownerId, attachmentId));
    },
    async list(ownerId) {
      return [...files.values()]
        .filter((file) => ownerId === undefined || file.record.ownerId === ownerId)
        .map((file) => ({ ...file.record }));
    },
  };
}
