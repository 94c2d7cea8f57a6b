import type { AttachmentRef, ModelInfo } from '../../core/protocol.ts';
import type { AttachmentFiles } from '../attachments/attachment-files.ts';
import type { StoredAttachment } from '../attachments/attachment-store.ts';
import { isImageType, isTextType } from '../attachments/verify-media-type.ts';
import { fail } from '../http/problem-error.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import type { ResolvedContextRef } from '../runs/run-handle.ts';
import { toAttachmentRef } from './attachment-routes.ts';

const FIELD = 'input.attachments';

/**
 * Validates a send's `input.attachments` (docs/protocol.md §5.8): at most
 * `maxAttachmentsPerMessage` objects `{attachmentId}` with distinct ids. Without attachments on,
 * any is `422 UNSUPPORTED_CONTENT`.
 */
export function validateAttachmentIds(value: unknown, files: AttachmentFiles | null): string[] | undefined {
  if (value === undefined) return undefined;
  const invalid = (): never =>
    fail({
      code: 'VALIDATION_FAILED',
      detail: 'attachments must be [{attachmentId}] of strings.',
      details: { field: FIELD },
    });
  if (!Array.isArray(value)) return invalid();
  if (value.length === 0) return undefined;
  if (files === null) {
    return fail({ code: 'UNSUPPORTED_CONTENT', detail: 'This agent takes no files.', details: { field: FIELD } });
  }
  const max = files.limits.maxAttachmentsPerMessage;
  if (value.length > max) {
    return failOverLimit({
      field: FIELD,
      limit: 'maxAttachmentsPerMessage',
      max,
      actual: value.length,
      detail: `A message may carry at most ${max} files.`,
    });
  }
  const ids = (value as unknown[]).map((item) => {
    const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).attachmentId : undefined;
    return typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : invalid();
  });
  return new Set(ids).size === ids.length ? ids : invalid();
}

/** What a send's files are for the run: their refs (log, snapshot, history) and the text files' text (the attachments layer). */
export interface AttachedFiles {
  refs: AttachmentRef[];
  texts: ResolvedContextRef[];
  stored: StoredAttachment[];
}

/**
 * Looks up the caller's files named by a send, before its run is created: each must be the
 * subject's and not already in another conversation (`422 VALIDATION_FAILED`), an image needs a
 * model with `imageInput` and any other file must be text (`422 UNSUPPORTED_CONTENT`, naming the
 * type and the model). Text files are read now, for the model's attachments layer.
 */
export async function resolveAttachedFiles(request: {
  files: AttachmentFiles;
  ids: readonly string[];
  subjectId: string;
  sessionId: string | undefined;
  model: ModelInfo;
}): Promise<AttachedFiles> {
  const { files, subjectId, model } = request;
  const attached: AttachedFiles = { refs: [], texts: [], stored: [] };
  for (const [index, attachmentId] of request.ids.entries()) {
    const field = `${FIELD}[${index}]`;
    const stored = await files.find(subjectId, attachmentId);
    if (stored === null) {
      return fail({
        code: 'VALIDATION_FAILED',
        detail: 'No such file.',
        details: { field, attachmentId, reason: 'not_found' },
      });
    }
    if (stored.sessionId !== null && stored.sessionId !== request.sessionId) {
      return fail({
        code: 'VALIDATION_FAILED',
        detail: 'That file belongs to another conversation; upload it again.',
        details: { field, attachmentId, reason: 'other_conversation' },
      });
    }
    if (isImageType(stored.mediaType)) {
      if (model.imageInput !== true) {
        return fail({
          code: 'UNSUPPORTED_CONTENT',
          detail: `The model ${model.label} cannot read images (${stored.name}); pick a model that can, or send it without.`,
          details: { field, attachmentId, mediaType: stored.mediaType, modelId: model.modelId },
        });
      }
    } else if (isTextType(stored.mediaType)) {
      const bytes = await files.read(subjectId, attachmentId);
      if (bytes === null) {
        return fail({
          code: 'VALIDATION_FAILED',
          detail: 'No such file.',
          details: { field, attachmentId, reason: 'not_found' },
        });
      }
      attached.texts.push({ ref: attachmentId, title: stored.name, text: new TextDecoder().decode(bytes) });
    } else {
      return fail({
        code: 'UNSUPPORTED_CONTENT',
        detail: `Files of type ${stored.mediaType} cannot be given to the model.`,
        details: { field, attachmentId, mediaType: stored.mediaType },
      });
    }
    attached.refs.push(toAttachmentRef(stored));
    attached.stored.push(stored);
  }
  return attached;
}
