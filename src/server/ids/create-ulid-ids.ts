import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Mints `<prefix>_<ULID>` ids (26 Crockford base32 characters: 48-bit time, 80 random bits). */
export function createUlidIds(clock: { now(): number } = { now: () => Date.now() }): (prefix: string) => string {
  return (prefix) => `${prefix}_${encodeTime(clock.now())}${encodeRandom()}`;
}

function encodeTime(ms: number): string {
  let value = Math.max(0, Math.floor(ms));
  let text = '';
  for (let i = 0; i < 10; i += 1) {
    text = CROCKFORD.charAt(value % 32) + text;
    value = Math.floor(value / 32);
  }
  return text;
}

function encodeRandom(): string {
  const bytes = randomBytes(16);
  let text = '';
  for (let i = 0; i < 16; i += 1) text += CROCKFORD.charAt((bytes[i] as number) % 32);
  return text;
}
