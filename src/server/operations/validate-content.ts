import type { InputContent, Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import type { ContractViolation } from './request-body-validators.ts';

/**
 * Checks what the schema cannot of user content its schema let through (docs/protocol.md §5.2,
 * §13): the parts joined must not be blank nor over `maxInputChars` characters (`422
 * VALIDATION_FAILED` on `content`, a limit's name in `details.limit`). Returns the parts (only
 * their `type` and `text`) and their joined text.
 */
export function checkContentText(
  parts: readonly InputContent[],
  limits: Pick<Limits, 'maxInputChars'>,
): { content: InputContent[]; text: string } {
  const { maxInputChars } = limits;
  const content = parts.map(({ text }): InputContent => ({ type: 'text', text }));
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

/**
 * Turns a schema violation inside a content part that is not text into `422 UNSUPPORTED_CONTENT`
 * (`details: {type, contentTypes}`): a part of another type is content this server does not take,
 * not a malformed request. Passes the `onViolation` hook of `parseContractBody`.
 */
export function refuseUnsupportedContent(violation: ContractViolation): void {
  const { path, value } = violation;
  const at = path.findIndex((segment, index) => segment === 'content' && /^\d+$/.test(path[index + 1] ?? ''));
  if (at === -1) return;
  let part: unknown = value;
  for (const segment of path.slice(0, at + 2)) {
    part = typeof part === 'object' && part !== null ? (part as Record<string, unknown>)[segment] : undefined;
  }
  if (typeof part !== 'object' || part === null) return;
  const { type } = part as { type?: unknown };
  if (type === 'text') return;
  fail({
    code: 'UNSUPPORTED_CONTENT',
    detail: 'Only text content is supported.',
    details: { type: typeof type === 'string' ? type : null, contentTypes: ['text'] },
  });
}
