import { extensionOf, MEDIA_TYPE_BY_EXTENSION, type AttachmentLimits } from '../../core/index.ts';

/**
 * The media type a file is uploaded as: its extension's (`MEDIA_TYPE_BY_EXTENSION`, so a `.ts` is
 * TypeScript and a `.md` Markdown whatever the browser said), else the browser's, else bytes.
 */
export function mediaTypeOf(file: File): string {
  return MEDIA_TYPE_BY_EXTENSION[extensionOf(file.name)] ?? (file.type || 'application/octet-stream');
}

/** A file refused before any upload: its protocol code and the limit behind it. */
export interface RefusedFile {
  code: 'PAYLOAD_TOO_LARGE' | 'ATTACHMENT_TYPE_UNSUPPORTED' | 'VALIDATION_FAILED';
  limit: keyof AttachmentLimits;
}

/**
 * Checks one file against the server's limits from bootstrap (each absent limit is not checked),
 * the way the server will (docs/protocol.md §5.8), so a file it would refuse is never sent: the
 * message's count (`filesBefore` already in the tray), the type allow-list, the size.
 */
export function checkFile(
  file: { size: number; mediaType: string },
  limits: Partial<AttachmentLimits>,
  filesBefore: number,
): RefusedFile | null {
  const { maxAttachmentsPerMessage, attachmentTypes, maxAttachmentBytes } = limits;
  if (maxAttachmentsPerMessage !== undefined && filesBefore >= maxAttachmentsPerMessage)
    return { code: 'VALIDATION_FAILED', limit: 'maxAttachmentsPerMessage' };
  if (attachmentTypes !== undefined && !attachmentTypes.includes(file.mediaType))
    return { code: 'ATTACHMENT_TYPE_UNSUPPORTED', limit: 'attachmentTypes' };
  if (maxAttachmentBytes !== undefined && file.size > maxAttachmentBytes)
    return { code: 'PAYLOAD_TOO_LARGE', limit: 'maxAttachmentBytes' };
  return null;
}
