import type { AttachmentLimits, BrowserToolLimits, Limits } from '../../core/protocol.ts';
import { refuse } from '../domain-error.ts';

/** The size limits of `Limits` a request field can break (docs/protocol.md §16.2). */
export type SizeLimitName = Extract<
  keyof (Limits & BrowserToolLimits & AttachmentLimits),
  | 'maxBrowserTools'
  | 'maxBrowserToolDescriptionChars'
  | 'maxBrowserToolSchemaBytes'
  | 'maxInputChars'
  | 'maxContentParts'
  | 'maxContextRefs'
  | 'maxContextRefChars'
  | 'maxContextTitleChars'
  | 'maxContextUrlChars'
  | 'maxIdChars'
  | 'maxReasonChars'
  | 'maxTitleChars'
  | 'maxCommentChars'
  | 'maxInstructionChars'
  | 'maxFocusChars'
  | 'maxEventBytes'
  | 'maxAttachmentsPerMessage'
>;

/**
 * Throws `422 VALIDATION_FAILED` for a field over a published limit, with `details: {field,
 * limit, <limit>: max, actual}` (plus `extra`), so a client can tell which limit and by how much
 * (`actual` in the limit's unit: characters, entries or bytes).
 */
export function failOverLimit(options: {
  field: string;
  limit: SizeLimitName;
  max: number;
  actual: number;
  detail: string;
  extra?: Record<string, unknown>;
}): never {
  const { field, limit, max, actual, detail, extra } = options;
  return refuse({
    code: 'VALIDATION_FAILED',
    detail,
    details: { field, limit, [limit]: max, actual, ...extra },
  });
}
