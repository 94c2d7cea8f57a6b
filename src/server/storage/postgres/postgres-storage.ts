import type { AgentStorage } from '../storage-port.ts';
import { openPostgresConnection } from './postgres-connection.ts';
import { createInCallOrder } from './in-call-order.ts';
import { createPostgresAppends } from './postgres-appends.ts';
import { createPostgresExecutorLeases } from './postgres-executor-leases.ts';
import { createPostgresIdempotency } from './postgres-idempotency.ts';
import { createPostgresLeases } from './postgres-leases.ts';
import { createPostgresLinks } from './postgres-links.ts';
import { migratePostgres } from './postgres-migrations.ts';
import { createPostgresRetention } from './postgres-retention.ts';
import { createPostgresRuns } from './postgres-runs.ts';
import { createPostgresSessions } from './postgres-sessions.ts';
import { createPostgresSettings } from './postgres-settings.ts';
import type { PostgresPool } from './postgres-pool.ts';
import { createPostgresTails } from './postgres-tails.ts';

/** Options of {@link createPostgresStorage}: a connection string or a `pg` pool of the product's own. */
export type PostgresStorageOptions = ({ connectionString: string } | { pool: PostgresPool }) & {
  /** The schema the tables live in (created when missing): lower-case letters, digits, `_`. Default `agent_chat`. */
  schema?: string;
  /** The most connections the pool it opens keeps (not with `pool`). Default 10. */
  maxConnections?: number;
  /** Bring the schema to the newest version first (default true; false when `npm run db:migrate` does it). */
  migrate?: boolean;
  /** Errors of the background listening connection (it reconnects by itself). Default: ignored. */
  onError?: (error: unknown) => void;
};

/** The schema of {@link createPostgresStorage} unless told otherwise. */
export const DEFAULT_POSTGRES_SCHEMA = 'agent_chat';

/**
 * Brings the schema to the newest version and closes the connection again (`npm run db:migrate`,
 * for teams that migrate before deploying and open the storage with `migrate: false`). Resolves
 * to the version the schema is at.
 */
export async function migratePostgresStorage(
  options: Pick<PostgresStorageOptions, 'schema'> & ({ connectionString: string } | { pool: PostgresPool }),
): Promise<number> {
  const target = 'pool' in options ? { pool: options.pool } : { connectionString: options.connectionString };
  const connection = openPostgresConnection(target, options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  try {
    return await migratePostgres(connection);
  } finally {
    await connection.close();
  }
}

/**
 * Opens the Postgres {@link AgentStorage}: everything durable in one schema, for any number of
 * server processes. Runs the versioned migrations first (unless `migrate: false`). Each write is
 * one transaction fenced by row locks; live tails of every process are rung by `LISTEN/NOTIFY`;
 * leases, idempotency records, executor leases and rate buckets are shared rows; writes of one
 * run from this process reach Postgres in call order (`in-call-order.ts`). A lost
 * connection is retried with backoff (see `openPostgresConnection`). `close()` ends the pool it
 * opened, never a pool it was given.
 */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<AgentStorage> {
  const target = 'pool' in options ? { pool: options.pool } : { connectionString: options.connectionString };
  const connection = openPostgresConnection(target, options.schema ?? DEFAULT_POSTGRES_SCHEMA, {
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
  });
  try {
    if (options.migrate ?? true) await migratePostgres(connection);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const tails = createPostgresTails(connection, { onError: options.onError ?? (() => undefined) });
  const runs = createPostgresRuns(connection, tails.notify);
  const appendEvents = createPostgresAppends(connection, tails.notify);
  const leases = createPostgresLeases(connection);
  const inCallOrder = createInCallOrder();
  return {
    ...runs,
    ...createPostgresSessions(connection),
    ...createPostgresRetention(connection),
    ...createPostgresIdempotency(connection),
    ...leases,
    renewLease: (runId, owner, expiresAt) =>
      inCallOrder(`lease:${runId}`, () => leases.renewLease(runId, owner, expiresAt)),
    takeExpiredLease: (runId, owner, now, expiresAt) =>
      inCallOrder(`lease:${runId}`, () => leases.takeExpiredLease(runId, owner, now, expiresAt)),
    ...createPostgresLinks(connection),
    ...createPostgresSettings(connection),
    executorLeases: createPostgresExecutorLeases(connection),
    async createRun(command) {
      const outcome = await runs.createRun(command);
      if (outcome.kind === 'created') tails.heard(command.run.runId, 1);
      return outcome;
    },
    async appendEvents(runId, expectedLastSeq, events, appendOptions) {
      await inCallOrder(`append:${runId}`, () => appendEvents(runId, expectedLastSeq, events, appendOptions));
      if (events.length > 0) tails.heard(runId, expectedLastSeq + events.length);
    },
    subscribe: (runId, onWake) => tails.subscribe(runId, onWake),
    async close() {
      await tails.close();
      await connection.close();
    },
  };
}
