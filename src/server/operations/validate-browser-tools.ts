import type { BrowserToolDeclaration, BrowserToolLimits, Limits } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import { findForbiddenSchemaKeyword } from '../tools/browser-tool-schemas.ts';
import type { BrowserSchemaCache } from '../tools/browser-tool-schemas.ts';
import { parseContractBody } from './request-body-validators.ts';

/**
 * Validates `browserTools` of `POST /runs` (docs/protocol.md §19.1): the contract's schema
 * (`BrowserTools`: at most `maxBrowserTools` declarations `{name, description, title?, parameters,
 * policy?}` with names of `[A-Za-z0-9_.-]{1,64}`, a non-blank description within
 * `maxBrowserToolDescriptionChars`, a title within `maxContextTitleChars`), then what a schema
 * cannot say: unique names, and a `parameters` schema within `maxBrowserToolSchemaBytes` that uses
 * no forbidden keyword and compiles. Anything else is `422 VALIDATION_FAILED` naming the field;
 * only those members are kept.
 */
export function validateBrowserTools(
  value: unknown,
  options: { limits: Pick<Limits, 'maxContextTitleChars'> & BrowserToolLimits; schemas: BrowserSchemaCache },
): BrowserToolDeclaration[] | undefined {
  if (value === undefined) return undefined;
  const tools = parseContractBody('BrowserTools', value, { limits: options.limits, rootField: 'browserTools' });
  const names = new Set<string>();
  return tools.map(({ name, description, title, parameters, policy }, index) => {
    const field = `browserTools[${index}]`;
    if (names.has(name))
      return invalid(`${field}.name`, 'A browser tool needs a unique name of 1–64 letters, digits, "_", "." or "-".');
    names.add(name);
    const schema = validateSchema(parameters, `${field}.parameters`, options);
    return {
      name,
      description,
      parameters: schema,
      ...(title === undefined ? {} : { title }),
      ...(policy === undefined ? {} : { policy }),
    };
  });
}

function validateSchema(
  schema: Record<string, unknown>,
  field: string,
  options: { limits: BrowserToolLimits; schemas: BrowserSchemaCache },
): Record<string, unknown> {
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
