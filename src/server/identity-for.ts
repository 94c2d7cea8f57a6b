import { createHmac, randomBytes } from 'node:crypto';
import type { Subject } from './runs/run-handle.ts';

/**
 * Creates the default identity binding: `idn_` + a keyed hash (HMAC-SHA-256, base64url, 32
 * characters) of the subject id. Stable for one secret; a new secret (e.g. a restart with the
 * default random one) makes clients bootstrap again. Not a credential.
 */
export function createIdentityFor(secret: Uint8Array | string = randomBytes(32)): (subject: Subject) => string {
  return (subject) => `idn_${createHmac('sha256', secret).update(subject.id, 'utf8').digest('base64url').slice(0, 32)}`;
}
