import type { UploadAttachmentResponse } from '../../core/protocol.ts';
import { ATTACHMENT_NAME_HEADER, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import type { AttachmentFiles } from '../attachments/attachment-files.ts';
import type { StoredAttachment } from '../attachments/attachment-store.ts';
import { isTextType } from '../attachments/verify-media-type.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import type { Route } from './route-context.ts';
import type { HandlerContext } from '../operations/operation-context.ts';

/**
 * `POST /attachments` (docs/protocol.md §5.8): the file is the body, its type the `Content-Type`,
 * its name the percent-encoded `X-Attachment-Name`. Counts against `attachmentsPerMinute`, then
 * the files check everything else before reading a byte of the body (size, type, uploads at once,
 * bytes per hour, quota, room) and stream it to the store. Answers `201` with the stored file.
 */
export const uploadAttachmentRoute: Route = {
  method: 'POST',
  template: '/attachments',
  rate: 'attachmentsPerMinute',
  body: 'stream',
  handle: async (request, context) => {
    const files = requireAttachments(context);
    const body = request.bodyStream;
    if (body === undefined) throw new TypeError('POST /attachments is a stream route: the core hands it the body.');
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'attachmentsPerMinute',
    });
    const stored = await files.upload({
      ownerId: request.subject.id,
      identityId: request.identityId,
      client: request.client,
      name: readFileName(request.raw.headers.get(ATTACHMENT_NAME_HEADER)),
      declaredType: request.raw.headers.get('content-type') ?? '',
      body,
    });
    const answer: UploadAttachmentResponse = toAttachmentRef(stored);
    return jsonResponse(201, answer, {
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
