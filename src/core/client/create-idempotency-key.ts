/** What a valid `Idempotency-Key` looks like (PROTOCOL §3.10): 16–255 chars of `[A-Za-z0-9_.:-]`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,255}$/;

/**
 * Returns a random UUIDv4 string built from `random` (uniform in [0, 1)). It is the default id of
 * the client's `ids` option and a valid idempotency key.
 */
export function createRandomUuid(random: () => number): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256) & 0xff);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Makes an idempotency key from the injected id source; throws a `TypeError` when the id is not
 * a valid key (so a misconfigured `ids` fails loudly at the first send, not as a server 400).
 */
export function createIdempotencyKey(ids: () => string): string {
  const key = ids();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new TypeError(`ids() returned "${key}", not an idempotency key`);
  }
  return key;
}
