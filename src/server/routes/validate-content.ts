import type { InputContent } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';

/**
 * Validates user content (`[{type:'text', text}]`, docs/protocol.md §5.2, §13) and returns it with
 * its joined text. Non-text parts are `422 UNSUPPORTED_CONTENT`; an empty or malformed list, an
 * empty text or more than `maxInputChars` characters are `422 VALIDATION_FAILED` with details.
 */
export function validateContent(value: unknown, maxInputChars: number): { content: InputContent[]; text: string } {
  if (!Array.isArray(value) || value.length === 0) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'content must be a non-empty array of text parts.',
      details: { field: 'content' },
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
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `The message may be at most ${maxInputChars} characters.`,
      details: { field: 'content', maxInputChars, actualChars: text.length },
    });
  }
  return { content, text };
}

/** Validates an optional client-proposed id (`clientMessageId`): a string of 1–128 id characters. */
export function validateClientId(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.:-]{1,128}$/.test(value)) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `${field} must be 1–128 characters of A–Z, a–z, 0–9, _ . : -.`,
      details: { field },
    });
  }
  return value;
}
