import type { UploadAttachmentResponse } from '../../core/protocol.ts';
import { ATTACHMENT_NAME_HEADER, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import type { AttachmentFiles } from '../attachments/attachment-files.ts';
import type { StoredAttachment } from '../attachments/attachment-store.ts';
import { isTextType } from '../attachments/verify-media-type.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import type { HandlerContext, Route } from './route-context.ts';

/**
 * `POST /attachments` (docs/protocol.md §5.8): the file is the body, its type the `Content-Type`,
 * its name the percent-encoded `X-Attachment-Name`. The core read the body within
 * `maxAttachmentBytes` (`413`); the type, the bytes and the quota are checked here. Counts against
 * `attachmentsPerMinute`; answers `201` with the stored file.
 */
export const uploadAttachmentRoute: Route = {
  method: 'POST',
  template: '/attachments',
  rate: 'attachmentsPerMinute',
  body: 'bytes',
  handle: async (request, context) => {
    const files = requireAttachments(context);
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'attachmentsPerMinute',
    });
    const bytes = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
    if (bytes.byteLength === 0) {
      return fail({
        code: 'VALIDATION_FAILED',
        detail: 'The file is empty.',
        details: { field: 'body', reason: 'empty' },
      });
    }
    const stored = await files.upload({
      ownerId: request.subject.id,
      name: readFileName(request.raw.headers.get(ATTACHMENT_NAME_HEADER)),
      declaredType: request.raw.headers.get('content-type') ?? '',
      bytes,
    });
    const body: UploadAttachmentResponse = toAttachmentRef(stored);
    return jsonResponse(201, body, {
      Location: `${context.apiBase}/attachments/${stored.attachmentId}`,
      [REQUEST_ID_HEADER]: request.requestId,
    });
  },
};

/**
 * `GET /attachments/{attachmentId}`: the file to its owner only (another subject's is `404` like a
 * missing one), always as a download that no browser renders: `Content-Disposition: attachment`,
 * `nosniff` and a CSP that sandboxes it and allows nothing.
 */
export const getAttachmentRoute: Route = {
  method: 'GET',
  template: '/attachments/{attachmentId}',
  handle: async (request, context) => {
    const files = requireAttachments(context);
    const attachmentId = request.params.attachmentId ?? '';
    const stored = await files.find(request.subject.id, attachmentId);
    const bytes = stored === null ? null : await files.read(request.subject.id, attachmentId);
    if (stored === null || bytes === null) return fail({ code: 'NOT_FOUND', detail: 'No such file.' });
    const type = isTextType(stored.mediaType) ? `${stored.mediaType}; charset=utf-8` : stored.mediaType;
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: {
        'Content-Type': type,
        'Content-Length': String(bytes.byteLength),
        'Content-Disposition': contentDisposition(stored.name),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'same-origin',
        'Cache-Control': 'private, no-store',
        [REQUEST_ID_HEADER]: request.requestId,
      },
    });
  },
};

/** What the protocol shows of a stored file. */
export function toAttachmentRef(stored: StoredAttachment): UploadAttachmentResponse {
  return { attachmentId: stored.attachmentId, name: stored.name, mediaType: stored.mediaType, size: stored.size };
}

function requireAttachments(context: HandlerContext): AttachmentFiles {
  if (context.attachments === null) return fail({ code: 'NOT_FOUND', detail: 'This server keeps no files.' });
  return context.attachments;
}

function readFileName(header: string | null): string {
  if (header === null) return 'file';
  try {
    return decodeURIComponent(header);
  } catch {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `${ATTACHMENT_NAME_HEADER} must be percent-encoded UTF-8.`,
      details: { header: ATTACHMENT_NAME_HEADER },
    });
  }
}

/** `attachment` with an ASCII `filename` and the exact UTF-8 `filename*` (RFC 6266). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
