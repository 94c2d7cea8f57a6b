import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Mints and checks the grants of browser tool claims (docs/protocol.md §19.3). */
export interface ToolGrants {
  /** The grant of `executorId` for the call: the same every time, so a repeated claim gets it again. */
  grantFor(claim: { runId: string; toolCallId: string; executorId: string }): Promise<string>;
  /** `sha256:` + base64url of the grant: what the log keeps instead of the grant. */
  digestOf(grant: string): string;
  /** True when `grant` is the one whose digest is `digest` (compared in constant time). */
  matches(grant: string, digest: string): boolean;
}

/** The key of the grants, or where to read it each time (the stored secret, which may change). */
export type ToolGrantSecret = Promise<Uint8Array | string> | Uint8Array | string | (() => Promise<Uint8Array | string>);

/**
 * Creates the grants over `secret` (HMAC-SHA-256): a grant is a keyed hash of the run, the call
 * and the executor, so no grant is stored. The handler passes a secret kept in its storage, so
 * grants outlive a restart; without one a random secret lasts as long as the grants.
 */
export function createToolGrants(secret: ToolGrantSecret = randomBytes(32)): ToolGrants {
  const fixed = typeof secret === 'function' ? null : Promise.resolve(secret);
  const keyOf = (): Promise<Uint8Array | string> => fixed ?? (secret as () => Promise<Uint8Array | string>)();
  const digestOf = (grant: string): string =>
    `sha256:${createHash('sha256').update(grant, 'utf8').digest('base64url')}`;
  return {
    grantFor: async ({ runId, toolCallId, executorId }) =>
      `grt_${createHmac('sha256', await keyOf())
        .update(`${runId}\n${toolCallId}\n${executorId}`, 'utf8')
        .digest('base64url')}`,
    digestOf,
    matches(grant, digest) {
      const actual = Buffer.from(digestOf(grant));
      const expected = Buffer.from(digest);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
