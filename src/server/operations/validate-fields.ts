import { fail } from '../http/problem-error.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';

/**
 * Validates an optional string field of at most `max` characters (`422 VALIDATION_FAILED` for a
 * non-string, an empty string when `isEmptyAllowed` is false, or a longer one).
 */
export function validateOptionalString(
  value: unknown,
  options: {
    field: string;
    limit: 'maxIdChars' | 'maxReasonChars';
    max: number;
    isEmptyAllowed?: boolean;
  },
): string | undefined {
  const { field, limit, max, isEmptyAllowed = true } = options;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || (!isEmptyAllowed && value === '')) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `${field} must be a${isEmptyAllowed ? '' : ' non-empty'} string.`,
      details: { field },
    });
  }
  if (value.length > max) {
    return failOverLimit({
      field,
      limit,
      max,
      actual: value.length,
      detail: `${field} may be at most ${max} characters.`,
    });
  }
  return value;
}

/**
 * Refuses a text with a control character (`\p{Cc}`: C0, DEL and C1) other than tab, line feed and
 * carriage return: `422 VALIDATION_FAILED` with `details: {field, reason: "control_characters"}`.
 */
export function refuseControlCharacters(text: string, field: string): void {
  if (/[^\P{Cc}\t\n\r]/u.test(text)) {
    fail({
      code: 'VALIDATION_FAILED',
      detail: `${field} must not contain control characters.`,
      details: { field, reason: 'control_characters' },
    });
  }
}
