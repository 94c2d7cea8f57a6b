import { createHash } from 'node:crypto';

/**
 * Serializes a JSON value canonically (the RFC 8785 JCS subset this project needs): object keys
 * sorted by UTF-16 code units, no whitespace, numbers and strings as `JSON.stringify` writes them.
 * `undefined` object members are dropped and `undefined` array items become `null`, as in
 * `JSON.stringify`. Throws a `TypeError` for values JSON cannot represent (non-finite numbers,
 * bigint, functions, symbols).
 */
export function canonicalJson(value: unknown): string {
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
      if (Array.isArray(value)) {
        return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

/** Returns `"sha256:<base64url>"` of the canonical JSON of `value` (the protocol's digest form). */
export function sha256Digest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value), 'utf8').digest('base64url')}`;
}
