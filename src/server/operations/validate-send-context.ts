import type { FocusContext, Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { validateOptionalString } from './validate-fields.ts';

/**
 * Validates a send's `input.instruction` (docs/protocol.md §5.2): a non-empty string of at most
 * `maxInstructionChars`, refused past it (`422 VALIDATION_FAILED`), never cut.
 */
export function validateInstruction(value: unknown, limits: Pick<Limits, 'maxInstructionChars'>): string | undefined {
  return validateOptionalString(value, {
    field: 'input.instruction',
    limit: 'maxInstructionChars',
    max: limits.maxInstructionChars,
    isEmptyAllowed: false,
  });
}

/**
 * Validates a send's `input.focus`: `{title?, text}` of strings, `text` at most `maxFocusChars`
 * and `title` at most `maxContextTitleChars`; other members are dropped. The engine may cut the
 * text further to its token budget, and says so (docs/agent-loop.md, "Context budget").
 */
export function validateFocus(
  value: unknown,
  limits: Pick<Limits, 'maxFocusChars' | 'maxContextTitleChars'>,
): FocusContext | undefined {
  if (value === undefined) return undefined;
  const field = 'input.focus';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail({ code: 'VALIDATION_FAILED', detail: 'focus must be {title?, text} of strings.', details: { field } });
  }
  const { title, text } = value as Record<string, unknown>;
  const checkedText = validateOptionalString(text, {
    field: `${field}.text`,
    limit: 'maxFocusChars',
    max: limits.maxFocusChars,
  });
  if (checkedText === undefined) {
    return fail({ code: 'VALIDATION_FAILED', detail: 'focus.text is required.', details: { field: `${field}.text` } });
  }
  if (title !== undefined && (typeof title !== 'string' || title.length > limits.maxContextTitleChars)) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `focus.title must be a string of at most ${limits.maxContextTitleChars} characters.`,
      details: { field: `${field}.title` },
    });
  }
  return title === undefined || title === '' ? { text: checkedText } : { title, text: checkedText };
}
