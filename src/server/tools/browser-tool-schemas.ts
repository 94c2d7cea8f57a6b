import { canonicalJson } from '../json/canonical-json.ts';
import type { JsonSchemaValidator } from './validate-json-schema.ts';
import { createJsonSchemaCompiler } from './validate-json-schema.ts';

/**
 * Keywords a browser tool's schema may not use, with why. The schema comes from a request, so it
 * must not be able to stall the server (a regular expression of its choosing), reach outside
 * itself (`$ref` to anything but `#…`) or register ids shared with other runs.
 */
const FORBIDDEN_KEYWORDS: Readonly<Record<string, string>> = {
  pattern: 'a regular expression',
  patternProperties: 'regular expressions',
  $id: 'a schema id',
  id: 'a schema id',
  $async: 'asynchronous validation',
  $dynamicRef: 'a dynamic reference',
  $recursiveRef: 'a recursive reference',
};

/** Keywords whose values are data, not schemas: their contents are never keywords. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'description', 'title']);

/**
 * Returns why a browser tool's `parameters` schema is refused (a forbidden keyword anywhere in it,
 * or a `$ref` that does not start with `#`), or null when it may be compiled. Walks the schema
 * only; whether Ajv accepts it is checked by compiling.
 */
export function findForbiddenSchemaKeyword(schema: unknown, path = '$'): string | null {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const found = findForbiddenSchemaKeyword(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof schema !== 'object' || schema === null) return null;
  for (const [key, value] of Object.entries(schema)) {
    const reason = FORBIDDEN_KEYWORDS[key];
    if (reason !== undefined && !isPropertyName(path)) return `${path}.${key} (${reason}) is not allowed`;
    if (key === '$ref' && (typeof value !== 'string' || !value.startsWith('#')))
      return `${path}.$ref may only point inside the schema ("#/…")`;
    if (DATA_KEYWORDS.has(key) && !isPropertyName(path)) continue;
    const found = findForbiddenSchemaKeyword(value, `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

/** Inside `properties` (or `$defs`) a key names a property or definition, not a keyword. */
function isPropertyName(path: string): boolean {
  return /\.(properties|\$defs|definitions)$/.test(path);
}

/** Compiles browser tool schemas, reusing the validator of a schema seen before. */
export interface BrowserSchemaCache {
  /** The validator of `schema` (compiled once per distinct schema); throws when Ajv refuses it. */
  compile(schema: Record<string, unknown>): JsonSchemaValidator;
  /** How many distinct schemas are kept. */
  size(): number;
}

/**
 * Creates the cache: validators keyed by the canonical JSON of their schema, at most `maxEntries`
 * (least recently used evicted and released from Ajv, so schemas sent with runs never accumulate).
 */
export function createBrowserSchemaCache(options: { maxEntries: number }): BrowserSchemaCache {
  const compiler = createJsonSchemaCompiler();
  const entries = new Map<string, { schema: Record<string, unknown>; validate: JsonSchemaValidator }>();
  return {
    compile(schema) {
      const key = canonicalJson(schema);
      const cached = entries.get(key);
      if (cached !== undefined) {
        entries.delete(key);
        entries.set(key, cached);
        return cached.validate;
      }
      let validate: JsonSchemaValidator;
      try {
        validate = compiler.compile(schema);
      } catch (error) {
        compiler.forget(schema);
        throw error;
      }
      entries.set(key, { schema, validate });
      for (const [oldKey, old] of entries) {
        if (entries.size <= options.maxEntries) break;
        entries.delete(oldKey);
        compiler.forget(old.schema);
      }
      return validate;
    },
    size: () => entries.size,
  };
}
