import type { AttachmentRef, ContextRef } from '../../core/index.ts';

/** What goes with a message besides its text (each list absent when empty). */
export interface MessageFiles {
  /** References from the product's picker or its own file storage. */
  contextRefs?: ContextRef[];
  /** Files uploaded to the reference server (docs/protocol.md §5.8). */
  attachments?: { attachmentId: string }[];
}

/** Where an uploaded file went: the reference server's store, or the product's own (a reference). */
export type StoredFile = { attachment: AttachmentRef } | { reference: ContextRef };

/** Why a file is not going with the message: a protocol code, and what the person is told with it. */
export interface FileProblem {
  /** `PAYLOAD_TOO_LARGE`, `ATTACHMENT_TYPE_UNSUPPORTED`, `ATTACHMENT_QUOTA_EXCEEDED`, `VALIDATION_FAILED` (past `maxAttachmentsPerMessage`), or any other code of a failed upload. */
  code: string;
  /** The limit passed: bytes for `PAYLOAD_TOO_LARGE`, files for `VALIDATION_FAILED`. */
  limit?: number;
  /** The failure's own message, for any other code. */
  reason?: string;
}

/** One file the person gave the composer, from its pick, paste or drop until the send. */
export interface TrayFile {
  key: string;
  kind: 'file';
  name: string;
  size: number;
  mediaType: string;
  status: 'uploading' | 'uploaded' | 'failed';
  /** The uploaded share in [0, 1] while uploading; null while the upload says nothing of it. */
  progress: number | null;
  /** Set once uploaded. */
  stored?: StoredFile;
  /** Set once failed or refused. */
  problem?: FileProblem;
}

/** A reference the product's own picker (`selectAttachments`) returned. */
export interface TrayReference {
  key: string;
  kind: 'reference';
  reference: ContextRef;
}

/** One chip of the composer's tray. */
export type TrayItem = TrayFile | TrayReference;

/** Everything that changes the tray. */
export type TrayAction =
  | { type: 'referencesPicked'; references: ContextRef[] }
  | { type: 'fileAdded'; file: Pick<TrayFile, 'key' | 'name' | 'size' | 'mediaType'>; problem?: FileProblem }
  | { type: 'uploadProgressed'; key: string; progress: number }
  | { type: 'uploadFinished'; key: string; stored: StoredFile }
  | { type: 'uploadFailed'; key: string; problem: FileProblem }
  | { type: 'removed'; key: string }
  /** A send with these chips was accepted: they go (chips added meanwhile stay for the next). */
  | { type: 'sent'; keys: readonly string[] };

/**
 * The tray after `action`: a new file starts uploading (or is failed at once with the problem a
 * check found); a picked reference is added once (by `ref`); progress, the end or the failure of
 * an upload changes only that file, and only while it is uploading (a removed file stays gone);
 * a send removes the chips it carried.
 */
export function reduceTray(items: readonly TrayItem[], action: TrayAction): TrayItem[] {
  switch (action.type) {
    case 'referencesPicked': {
      const known = new Set(items.flatMap((item) => (item.kind === 'reference' ? [item.reference.ref] : [])));
      const added = action.references.filter((reference) => {
        const isNew = !known.has(reference.ref);
        known.add(reference.ref);
        return isNew;
      });
      return [
        ...items,
        ...added.map((reference): TrayReference => ({ key: `ref:${reference.ref}`, kind: 'reference', reference })),
      ];
    }
    case 'fileAdded': {
      const { problem } = action;
      const file: TrayFile = problem
        ? { ...action.file, kind: 'file', status: 'failed', progress: null, problem }
        : { ...action.file, kind: 'file', status: 'uploading', progress: null };
      return [...items, file];
    }
    case 'uploadProgressed':
      return updateUploading(items, action.key, { progress: Math.min(1, Math.max(0, action.progress)) });
    case 'uploadFinished':
      return updateUploading(items, action.key, { status: 'uploaded', progress: 1, stored: action.stored });
    case 'uploadFailed':
      return updateUploading(items, action.key, { status: 'failed', progress: null, problem: action.problem });
    case 'removed':
      return items.filter((item) => item.key !== action.key);
    case 'sent':
      return items.filter((item) => !action.keys.includes(item.key));
  }
}

function updateUploading(items: readonly TrayItem[], key: string, patch: Partial<TrayFile>): TrayItem[] {
  return items.map((item) =>
    item.key === key && item.kind === 'file' && item.status === 'uploading' ? { ...item, ...patch } : item,
  );
}

/** The files still counted against `maxAttachmentsPerMessage`: all but the failed ones. */
export function countFiles(items: readonly TrayItem[]): number {
  return items.filter((item) => item.kind === 'file' && item.status !== 'failed').length;
}

/** Whether Send must wait: a file is uploading, or failed and not removed yet (nothing goes silently without it). */
export function isTrayBlocking(items: readonly TrayItem[]): boolean {
  return items.some((item) => item.kind === 'file' && item.status !== 'uploaded');
}

/**
 * What the next send names: the reference server's files as `attachments`, the rest as
 * `contextRefs`; an empty list is left out (a send without files sends neither).
 */
export function trayPayload(items: readonly TrayItem[]): MessageFiles {
  const attachments: { attachmentId: string }[] = [];
  const contextRefs: ContextRef[] = [];
  for (const item of items) {
    if (item.kind === 'reference') contextRefs.push(item.reference);
    else if (item.stored && 'attachment' in item.stored)
      attachments.push({ attachmentId: item.stored.attachment.attachmentId });
    else if (item.stored) contextRefs.push(item.stored.reference);
  }
  return {
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(contextRefs.length > 0 ? { contextRefs } : {}),
  };
}
