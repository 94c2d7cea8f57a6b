/** What a valid `Idempotency-Key` looks like (docs/protocol.md §10): 16–255 chars of `[A-Za-z0-9_.:-]`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,255}$/;

/**
 * Returns a random UUIDv4 string, each hex digit from one `randomByte()` (default the platform's
 * CSPRNG, `crypto.getRandomValues`, which unlike `crypto.randomUUID` exists outside secure
 * contexts too). It is the default id of the client's `ids` option and a valid idempotency key.
 */
export function createRandomUuid(
  randomByte: () => number = () => globalThis.crypto.getRandomValues(new Uint8Array(1))[0] ?? 0,
): string {
  // The template's 0/1 digits become any hex digit; its 8 (the variant) becomes 8–b; its 4 (the version) stays.
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
    (Number(digit) ^ (randomByte() & (15 >> (Number(digit) / 4)))).toString(16),
  );
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
