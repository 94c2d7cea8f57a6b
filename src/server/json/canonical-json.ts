import { createHash } from 'node:crypto';

/**
 * Serializes a JSON value canonically (the RFC 8785 JCS subset this project needs): object keys
 * sorted by UTF-16 code units, no whitespace, numbers and strings as `JSON.stringify` writes them.
 * `undefined` object members are dropped and `undefined` array items become `null`, as in
 * `JSON.stringify`. Throws a `TypeError` for values JSON cannot represent (non-finite numbers,
 * bigint, functions, symbols) and a `RangeError` past {@link MAX_CANONICAL_DEPTH} levels of
 * nesting, before the stack could overflow.
 */
export function canonicalJson(value: unknown): string {
  return writeCanonical(value, 0);
}

/**
 * How deep {@link canonicalJson} goes. Request bodies are held to `MAX_JSON_DEPTH` (64) when they
 * are read; the margin covers the wrappers around them (the idempotency fingerprint nests the body
 * one level down) and tool arguments, which come from the model.
 */
export const MAX_CANONICAL_DEPTH = 256;

function writeCanonical(value: unknown, depth: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: non-finite numbers are not JSON');
      return JSON.stringify(value);
    case 'object': {
      if (depth >= MAX_CANONICAL_DEPTH) {
        throw new RangeError(`canonicalJson: nested deeper than ${MAX_CANONICAL_DEPTH} levels`);
      }
      if (Array.isArray(value)) {
        return `[${value.map((item) => (item === undefined ? 'null' : writeCanonical(item, depth + 1))).join(',')}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${writeCanonical(record[key], depth + 1)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

/** Returns `"sha256:<base64url>"` of the canonical JSON of `value` (the protocol's digest form). */
export function sha256Digest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value), 'utf8').digest('base64url')}`;
}
