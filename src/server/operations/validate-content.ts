import type { InputContent, Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';

/**
 * Validates user content (`[{type:'text', text}]`, docs/protocol.md §5.2, §13) and returns it with
 * its joined text. Non-text parts are `422 UNSUPPORTED_CONTENT`; an empty or malformed list, an
 * empty text, more than `maxContentParts` parts or more than `maxInputChars` characters are `422
 * VALIDATION_FAILED` with details (a limit's name in `details.limit`).
 */
export function validateContent(
  value: unknown,
  limits: Pick<Limits, 'maxInputChars' | 'maxContentParts'>,
): { content: InputContent[]; text: string } {
  const { maxInputChars, maxContentParts } = limits;
  if (!Array.isArray(value) || value.length === 0) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'content must be a non-empty array of text parts.',
      details: { field: 'content' },
    });
  }
  if (value.length > maxContentParts) {
    return failOverLimit({
      field: 'content',
      limit: 'maxContentParts',
      max: maxContentParts,
      actual: value.length,
      detail: `A message may have at most ${maxContentParts} parts.`,
    });
  }
  const content: InputContent[] = [];
  for (const part of value as unknown[]) {
    if (typeof part !== 'object' || part === null) {
      return fail({
        code: 'VALIDATION_FAILED',
        detail: 'Each content part must be an object.',
        details: { field: 'content' },
      });
    }
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (type !== 'text') {
      return fail({
        code: 'UNSUPPORTED_CONTENT',
        detail: 'Only text content is supported.',
        details: { type: typeof type === 'string' ? type : null, contentTypes: ['text'] },
      });
    }
    if (typeof text !== 'string') {
      return fail({
        code: 'VALIDATION_FAILED',
        detail: 'A text part needs a string text.',
        details: { field: 'content.text' },
      });
    }
    content.push({ type: 'text', text });
  }
  const text = content.map((part) => part.text).join('');
  if (text.trim() === '') {
    return fail({ code: 'VALIDATION_FAILED', detail: 'The message is empty.', details: { field: 'content' } });
  }
  if (text.length > maxInputChars) {
    return failOverLimit({
      field: 'content',
      limit: 'maxInputChars',
      max: maxInputChars,
      actual: text.length,
      detail: `The message may be at most ${maxInputChars} characters.`,
    });
  }
  return { content, text };
}

/** Validates an optional client-proposed id (`clientMessageId`): 1–`maxIdChars` characters of `[A-Za-z0-9_.:-]`. */
export function validateClientId(value: unknown, options: { field: string; maxIdChars: number }): string | undefined {
  const { field, maxIdChars } = options;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.:-]+$/.test(value)) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `${field} must be characters of A–Z, a–z, 0–9, _ . : -.`,
      details: { field },
    });
  }
  if (value.length > maxIdChars) {
    return failOverLimit({
      field,
      limit: 'maxIdChars',
      max: maxIdChars,
      actual: value.length,
      detail: `${field} may be at most ${maxIdChars} characters.`,
    });
  }
  return value;
}
