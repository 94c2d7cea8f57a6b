import type { BrowserToolDeclaration, BrowserToolLimits, Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import { findForbiddenSchemaKeyword } from '../tools/browser-tool-schemas.ts';
import type { BrowserSchemaCache } from '../tools/browser-tool-schemas.ts';
import { requireObject } from './validate-fields.ts';

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Validates `browserTools` of `POST /runs` (docs/protocol.md §19.1): at most `maxBrowserTools`
 * declarations `{name, description, title?, parameters, policy?}` with unique names of
 * `[A-Za-z0-9_.-]{1,64}`, a description within `maxBrowserToolDescriptionChars`, a title within
 * `maxContextTitleChars`, and a schema within `maxBrowserToolSchemaBytes` that uses no forbidden
 * keyword and compiles. Anything else is `422 VALIDATION_FAILED` naming the field; only those
 * members are kept.
 */
export function validateBrowserTools(
  value: unknown,
  options: { limits: Pick<Limits, 'maxContextTitleChars'> & BrowserToolLimits; schemas: BrowserSchemaCache },
): BrowserToolDeclaration[] | undefined {
  if (value === undefined) return undefined;
  const { limits } = options;
  if (!Array.isArray(value)) return invalid('browserTools', 'browserTools must be an array of tool declarations.');
  if (value.length > limits.maxBrowserTools) {
    return failOverLimit({
      field: 'browserTools',
      limit: 'maxBrowserTools',
      max: limits.maxBrowserTools,
      actual: value.length,
      detail: `At most ${limits.maxBrowserTools} browser tools may be declared.`,
    });
  }
  const names = new Set<string>();
  return (value as unknown[]).map((item, index) => {
    const field = `browserTools[${index}]`;
    const tool = requireObject(item, field);
    const { name, description, title, parameters, policy } = tool;
    if (typeof name !== 'string' || !NAME_PATTERN.test(name) || names.has(name))
      return invalid(`${field}.name`, 'A browser tool needs a unique name of 1–64 letters, digits, "_", "." or "-".');
    names.add(name);
    if (typeof description !== 'string' || description.trim() === '')
      return invalid(`${field}.description`, 'A browser tool needs a description.');
    if (description.length > limits.maxBrowserToolDescriptionChars) {
      failOverLimit({
        field: `${field}.description`,
        limit: 'maxBrowserToolDescriptionChars',
        max: limits.maxBrowserToolDescriptionChars,
        actual: description.length,
        detail: `A browser tool's description may be at most ${limits.maxBrowserToolDescriptionChars} characters.`,
      });
    }
    if (title !== undefined && (typeof title !== 'string' || title.length > limits.maxContextTitleChars)) {
      return invalid(
        `${field}.title`,
        `A browser tool's title must be a string of at most ${limits.maxContextTitleChars} characters.`,
      );
    }
    if (policy !== undefined && policy !== 'allow' && policy !== 'ask')
      return invalid(`${field}.policy`, 'policy must be "allow" or "ask".');
    const schema = validateSchema(parameters, `${field}.parameters`, options);
    return {
      name,
      description,
      parameters: schema,
      ...(typeof title === 'string' ? { title } : {}),
      ...(policy === undefined ? {} : { policy }),
    };
  });
}

function validateSchema(
  value: unknown,
  field: string,
  options: { limits: BrowserToolLimits; schemas: BrowserSchemaCache },
): Record<string, unknown> {
  const schema = requireObject(value, field);
  const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
  const max = options.limits.maxBrowserToolSchemaBytes;
  if (bytes > max) {
    failOverLimit({
      field,
      limit: 'maxBrowserToolSchemaBytes',
      max,
      actual: bytes,
      detail: `A browser tool's schema may be at most ${max} bytes of JSON.`,
    });
  }
  const forbidden = findForbiddenSchemaKeyword(schema);
  if (forbidden !== null) return invalid(field, `The schema cannot be used: ${forbidden}.`, 'schema_keyword');
  try {
    options.schemas.compile(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return invalid(field, `The schema does not compile: ${reason.slice(0, 300)}`, 'invalid_schema');
  }
  return schema;
}

function invalid(field: string, detail: string, reason?: string): never {
  return fail({ code: 'VALIDATION_FAILED', detail, details: { field, ...(reason === undefined ? {} : { reason }) } });
}
