import type { ContextRef, Limits } from '../../core/protocol.ts';
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
    limit: 'maxIdChars' | 'maxReasonChars' | 'maxInstructionChars' | 'maxFocusChars' | 'maxCommentChars';
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

/**
 * Validates `input.contextRefs`: at most `maxContextRefs` objects `{ref, title?, url?}` of strings,
 * each within its character limit; only those three members are kept.
 */
export function validateContextRefs(
  value: unknown,
  limits: Pick<Limits, 'maxContextRefs' | 'maxContextRefChars' | 'maxContextTitleChars' | 'maxContextUrlChars'>,
): ContextRef[] | undefined {
  if (value === undefined) return undefined;
  const field = 'input.contextRefs';
  const invalid = (): never =>
    fail({
      code: 'VALIDATION_FAILED',
      detail: 'contextRefs must be [{ref, title?, url?}] of strings.',
      details: { field },
    });
  if (!Array.isArray(value)) return invalid();
  if (value.length > limits.maxContextRefs) {
    return failOverLimit({
      field,
      limit: 'maxContextRefs',
      max: limits.maxContextRefs,
      actual: value.length,
      detail: `At most ${limits.maxContextRefs} references may be attached.`,
    });
  }
  return (value as unknown[]).map((item, index) => {
    if (typeof item !== 'object' || item === null) return invalid();
    const { ref, title, url } = item as Record<string, unknown>;
    if (typeof ref !== 'string' || ref === '' || !isOptionalString(title) || !isOptionalString(url)) return invalid();
    const checks = [
      { member: 'ref', text: ref, limit: 'maxContextRefChars', max: limits.maxContextRefChars },
      { member: 'title', text: title, limit: 'maxContextTitleChars', max: limits.maxContextTitleChars },
      { member: 'url', text: url, limit: 'maxContextUrlChars', max: limits.maxContextUrlChars },
    ] as const;
    for (const { member, text, limit, max } of checks) {
      if (text !== undefined && text.length > max) {
        failOverLimit({
          field: `${field}[${index}].${member}`,
          limit,
          max,
          actual: text.length,
          detail: `A reference's ${member} may be at most ${max} characters.`,
        });
      }
    }
    return { ref, ...(title === undefined ? {} : { title }), ...(url === undefined ? {} : { url }) };
  });
}

function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** Narrows an unknown JSON body to a plain object, or throws `422 VALIDATION_FAILED`. */
export function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail({ code: 'VALIDATION_FAILED', detail: `${what} must be a JSON object.`, details: { field: what } });
  }
  return value as Record<string, unknown>;
}
