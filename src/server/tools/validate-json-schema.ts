import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

/** Checks a value against one compiled schema; returns the problems found (empty when valid). */
export type JsonSchemaValidator = (value: unknown) => string[];

/** At most this many problems are reported for one value, so a broken call stays a short message. */
const MAX_PROBLEMS = 10;

/** Compiles JSON Schemas into validators; `forget` drops a compiled schema from the compiler's cache. */
export interface JsonSchemaCompiler {
  compile(schema: Record<string, unknown>): JsonSchemaValidator;
  /** Releases what `compile` kept for this schema object (its validator keeps working). */
  forget(schema: Record<string, unknown>): void;
}

/**
 * Creates a compiler of JSON Schemas (draft-07 with `$defs`, `ajv-formats` formats) backed by one
 * Ajv instance. `compile(schema)` throws when the schema is invalid or uses a keyword or format
 * Ajv does not know, so nothing a product wrote is silently not enforced. The returned validator
 * reports every problem (up to ten), each naming its path (`$.orderId`, `$.items[2]`). Ajv keeps
 * every compiled schema object until `forget`.
 */
export function createJsonSchemaCompiler(): JsonSchemaCompiler {
  const ajv = new Ajv({ allErrors: true, strictTypes: false, strictTuples: false, strictRequired: false });
  addFormats(ajv);
  return {
    compile(schema) {
      const check = ajv.compile(schema);
      return (value) => (check(value) ? [] : (check.errors ?? []).slice(0, MAX_PROBLEMS).map(describeError));
    },
    forget(schema) {
      ajv.removeSchema(schema);
    },
  };
}

function describeError(error: ErrorObject): string {
  const path = toPath(error.instancePath);
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return `${path}${toPath(`/${String(params['missingProperty'])}`).slice(1)} is required`;
    case 'additionalProperties':
      return `${path}${toPath(`/${String(params['additionalProperty'])}`).slice(1)} is not allowed`;
    case 'enum': {
      const allowed: unknown[] = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
      return `${path} must be one of ${allowed.map((option) => JSON.stringify(option)).join(', ')}`;
    }
    case 'const':
      return `${path} must be ${JSON.stringify(params['allowedValue'])}`;
    case 'type':
      return `${path} must be ${describeType(String(params['type']))}`;
    case 'minLength':
      return `${path} must have at least ${String(params['limit'])} characters`;
    case 'maxLength':
      return `${path} must have at most ${String(params['limit'])} characters`;
    case 'minimum':
      return `${path} must be at least ${String(params['limit'])}`;
    case 'maximum':
      return `${path} must be at most ${String(params['limit'])}`;
    default:
      return `${path} ${error.message ?? `fails "${error.keyword}"`}`;
  }
}

/** `string` → `a string`, `integer` → `an integer`, `string,null` → `a string or null`. */
function describeType(types: string): string {
  return types
    .split(',')
    .map((type) => (type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`))
    .join(' or ');
}

/** A JSON Pointer (`/items/2/name`) as a readable path (`$.items[2].name`). */
function toPath(pointer: string): string {
  if (pointer === '') return '$';
  return `$${pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join('')}`;
}
