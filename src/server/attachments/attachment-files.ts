import type { AttachmentLimits } from '../../core/protocol.ts';
import { refuse } from '../domain-error.ts';
import type { AttachmentStore, StoredAttachment } from './attachment-store.ts';
import type { AttachmentCaps } from './upload-admission.ts';
import { createUploadAdmission } from './upload-admission.ts';
import type { ContentCheck, MediaTypeCheck } from './verify-media-type.ts';
import { startMediaTypeCheck } from './verify-media-type.ts';

/** Options of {@link createAttachmentFiles}. */
export interface AttachmentFilesOptions {
  store: AttachmentStore;
  limits: AttachmentLimits;
  caps: AttachmentCaps;
  ids: (prefix: string) => string;
  now: () => number;
  /** An upload no send named within this long is deleted by the sweep. */
  unsentTtlMs: number;
  /** The same while room is short (the store past 80 % of `maxAttachmentStoreBytes`, or its disk low). */
  unsentTtlWhenShortMs: number;
  /** The `Retry-After` of a refusal for uploads at once. */
  capacityRetryAfterMs: number;
}

/** An upload's body as the route hands it over: read only when its checks passed. */
export interface UploadBody {
  /** The declared `Content-Length`; null when none was declared. */
  readonly declaredBytes: number | null;
  /** The bytes as they arrive, within `maxAttachmentBytes` (the reader refuses past it). */
  chunks(): AsyncIterable<Uint8Array>;
}

/** The attachments of every conversation, over the store: uploads checked at the edge, binding, deletion. */
export interface AttachmentFiles {
  readonly limits: AttachmentLimits;
  /**
   * Keeps an uploaded file. Before any byte is read: its declared size (`PAYLOAD_TOO_LARGE`), its
   * type against the allow-list (`ATTACHMENT_TYPE_UNSUPPORTED`), then what uploads may take at once
   * and per hour, the owner's quota (`ATTACHMENT_QUOTA_EXCEEDED`) and the store's room
   * (`STORAGE_FULL`), see {@link createUploadAdmission}. Then its bytes go to the store as they
   * arrive, checked against the type (a mismatch stops reading them); a store without `putStream`
   * gets them at once.
   */
  upload(file: {
    ownerId: string;
    identityId: string;
    /** The network client it comes from (its address, or a key of its own when unknown). */
    client: string;
    name: string;
    declaredType: string;
    body: UploadBody;
  }): Promise<StoredAttachment>;
  /** The owner's file, or null (another owner's file is null too). */
  find(ownerId: string, attachmentId: string): Promise<StoredAttachment | null>;
  /** The owner's file's bytes, or null. */
  read(ownerId: string, attachmentId: string): Promise<Uint8Array | null>;
  /** Marks the files as carried by a message of the session, so deleting the session deletes them. */
  bind(files: readonly StoredAttachment[], sessionId: string): Promise<void>;
  /** Deletes the files of the owner's session. */
  deleteForSession(ownerId: string, sessionId: string): Promise<void>;
  /**
   * Deletes uploads never sent within the TTL (the shorter one while room is short) and files
   * whose session is gone (evicted or deleted); recounts the store's bytes.
   */
  sweep(sessionExists: (sessionId: string) => Promise<boolean>): Promise<void>;
}

const MAX_NAME_CHARS = 255;

/** Creates the attachment files over `options.store` (docs/server.md, "Attachments"). */
export function createAttachmentFiles(options: AttachmentFilesOptions): AttachmentFiles {
  const { store, limits } = options;
  const admission = createUploadAdmission({
    store,
    limits,
    caps: options.caps,
    now: options.now,
    capacityRetryAfterMs: options.capacityRetryAfterMs,
  });
  return {
    limits,
    async upload(file) {
      const name = cleanFileName(file.name);
      const check = startMediaTypeCheck({ declaredType: file.declaredType, name, allowed: limits.attachmentTypes });
      if ('kind' in check) return refuseType(check, limits);
      const declared = file.body.declaredBytes;
      if (declared === 0) return refuseEmpty();
      if (declared !== null && declared > limits.maxAttachmentBytes) {
        return refuse({
          code: 'PAYLOAD_TOO_LARGE',
          detail: `A file may be at most ${limits.maxAttachmentBytes} bytes.`,
          details: { limit: 'maxAttachmentBytes', maxAttachmentBytes: limits.maxAttachmentBytes },
        });
      }
      const ticket = await admission.admit({
        ownerId: file.ownerId,
        identityId: file.identityId,
        client: file.client,
        bytes: declared ?? limits.maxAttachmentBytes,
      });
      const received = { bytes: 0 };
      let storedBytes = 0;
      try {
        const attachment: StoredAttachment = {
          attachmentId: options.ids('att'),
          name,
          mediaType: check.mediaType,
          size: declared ?? 0,
          ownerId: file.ownerId,
          sessionId: null,
          createdAt: options.now(),
        };
        const chunks = checkedChunks(file.body.chunks(), { check, declared, received, limits });
        if (declared !== null && store.putStream !== undefined) await store.putStream(attachment, chunks);
        else {
          const bytes = await collect(chunks, received);
          attachment.size = bytes.byteLength;
          await store.put(attachment, bytes);
        }
        storedBytes = attachment.size;
        return attachment;
      } finally {
        await ticket.end({ storedBytes, receivedBytes: received.bytes });
      }
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
        if (file.sessionId !== sessionId) continue;
        await store.delete(ownerId, file.attachmentId);
        admission.removed(file.size);
      }
    },
    async sweep(sessionExists) {
      admission.sweep();
      const files = await store.list();
      admission.recount(files);
      const ttl = (await admission.isRoomShort()) ? options.unsentTtlWhenShortMs : options.unsentTtlMs;
      const unsentBefore = options.now() - ttl;
      const known = new Map<string, boolean>();
      for (const file of files) {
        let isKept: boolean;
        if (file.sessionId === null) isKept = file.createdAt >= unsentBefore;
        else {
          isKept = known.get(file.sessionId) ?? (await sessionExists(file.sessionId));
          known.set(file.sessionId, isKept);
        }
        if (isKept) continue;
        await store.delete(file.ownerId, file.attachmentId);
        admission.removed(file.size);
      }
    },
  };
}

/**
 * The upload's chunks as they pass to the store, counted into `received` and checked against the
 * type as they come (a mismatch refuses at once, so the rest is never read) and, once they end,
 * against the declared length and emptiness. A refusal thrown here makes the store keep nothing.
 */
async function* checkedChunks(
  chunks: AsyncIterable<Uint8Array>,
  context: { check: ContentCheck; declared: number | null; received: { bytes: number }; limits: AttachmentLimits },
): AsyncGenerator<Uint8Array> {
  const { check, declared, received, limits } = context;
  for await (const chunk of chunks) {
    received.bytes += chunk.byteLength;
    if (declared !== null && received.bytes > declared) refuseLength(declared);
    if (!check.push(chunk)) refuseType(check.finish(), limits);
    yield chunk;
  }
  if (received.bytes === 0) refuseEmpty();
  if (declared !== null && received.bytes !== declared) refuseLength(declared);
  const verdict = check.finish();
  if (verdict.kind === 'refused') refuseType(verdict, limits);
}

async function collect(chunks: AsyncIterable<Uint8Array>, received: { bytes: number }): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  const bytes = new Uint8Array(received.bytes);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

function refuseType(check: MediaTypeCheck, limits: AttachmentLimits): never {
  const reason = check.kind === 'refused' ? check.reason : 'content_mismatch';
  return refuse({
    code: 'ATTACHMENT_TYPE_UNSUPPORTED',
    detail:
      reason === 'not_allowed'
        ? `Files of type ${check.mediaType} are not accepted.`
        : `The file is not the ${check.mediaType} it says it is.`,
    details: { mediaType: check.mediaType, reason, attachmentTypes: limits.attachmentTypes },
  });
}

function refuseEmpty(): never {
  return refuse({
    code: 'VALIDATION_FAILED',
    detail: 'The file is empty.',
    details: { field: 'body', reason: 'empty' },
  });
}

function refuseLength(declared: number): never {
  return refuse({
    code: 'VALIDATION_FAILED',
    detail: `The body is not the ${declared} bytes its Content-Length says.`,
    details: { field: 'body', reason: 'length_mismatch' },
  });
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
