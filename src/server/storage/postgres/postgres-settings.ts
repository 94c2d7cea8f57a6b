import type { AgentStorage } from '../storage-port.ts';
import type { PostgresConnection } from './postgres-connection.ts';

/** The settings, shared rate buckets and readiness role of the Postgres storage. */
export type PostgresSettings = Pick<AgentStorage, 'getOrCreateSetting' | 'takeRate' | 'checkReady'>;

/** 2023-11-14 in epoch ms: rate steps count from it, so they stay exact integers (as on Redis). */
const RATE_EPOCH_MS = 1_700_000_000_000;
const RATE_WINDOW_MS = 60_000;

/**
 * Server settings (the generated identity secret among them: the first value stored wins in every
 * process), the rate buckets every process counts against, and `/readyz`'s write check.
 */
export function createPostgresSettings({ s, pool, query, transaction }: PostgresConnection): PostgresSettings {
  return {
    async getOrCreateSetting(name, proposed) {
      await query(`INSERT INTO ${s}.settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
        name,
        proposed,
      ]);
      const { rows } = await query<{ value: string }>(`SELECT value FROM ${s}.settings WHERE name = $1`, [name]);
      return (rows[0] as { value: string }).value;
    },
    // The generic cell rate algorithm of `createRateLimiter` and the Redis script: the row holds the
    // time at which the bucket is full again, in 1/perMinute ms since RATE_EPOCH_MS.
    takeRate: ({ bucket, perMinute, now }) =>
      transaction(async (sql) => {
        const key = `${perMinute}:${bucket}`;
        await sql(
          `INSERT INTO ${s}.rate_buckets (bucket, full_at, expires_at) VALUES ($1, 0, 0) ON CONFLICT (bucket) DO NOTHING`,
          [key],
        );
        const { rows } = await sql<{ full_at: number; expires_at: number }>(
          `SELECT full_at, expires_at FROM ${s}.rate_buckets WHERE bucket = $1 FOR UPDATE`,
          [key],
        );
        const stored = rows[0] !== undefined && rows[0].expires_at > now ? rows[0].full_at : null;
        const scaledNow = (now - RATE_EPOCH_MS) * perMinute;
        const fullAt = Math.max(stored ?? scaledNow, scaledNow) + RATE_WINDOW_MS;
        const over = fullAt - scaledNow - RATE_WINDOW_MS * perMinute;
        if (over > 0) return { isAllowed: false, retryAfterMs: Math.ceil(over / perMinute) };
        const expiresAt = now + Math.ceil((fullAt - scaledNow) / perMinute);
        await sql(`UPDATE ${s}.rate_buckets SET full_at = $1, expires_at = $2 WHERE bucket = $3`, [
          fullAt,
          expiresAt,
          key,
        ]);
        return { isAllowed: true };
      }),
    async checkReady() {
      // A write that commits proves the database is up, writable and the schema is there. Asked
      // once, without the retries of a lost connection: /readyz reports the outage at once.
      await pool.query(
        `INSERT INTO ${s}.settings (name, value) VALUES ('readiness_mark', $1)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [String(Date.now())],
      );
    },
  };
}
