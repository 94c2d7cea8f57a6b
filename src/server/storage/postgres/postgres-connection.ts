import type * as PgModule from 'pg';
import type { Pool, PoolClient, PoolConfig, QueryResultRow } from 'pg';
import type { PostgresPool } from './postgres-pool.ts';
import { requireOptionalPeer } from '../../optional-peer.ts';

/** Where the Postgres storage connects: a connection string, or a pool of the product's own. */
export type PostgresTarget = { connectionString: string } | { pool: PostgresPool };

/** One statement's answer: its rows and how many rows it touched. */
export interface SqlResult<R> {
  rows: R[];
  rowCount: number;
}

/** Runs one statement (inside a transaction, or on its own). */
export type RunSql = <R extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<SqlResult<R>>;

/** The storage's way to Postgres: statements and transactions that retry a lost connection. */
export interface PostgresConnection {
  pool: Pool;
  /** The quoted schema, to prefix table names with (`${s}.runs`). */
  s: string;
  /** The schema's name as given (the NOTIFY channel of its tails). */
  schema: string;
  /** One statement in its own implicit transaction, retried while the connection is being re-established. */
  query: RunSql;
  /**
   * One write that must not run twice (an append): a failure to connect is retried like `query`,
   * but a connection lost once the statement was sent throws {@link CommitOutcomeUnknownError}.
   */
  writeOnce: RunSql;
  /**
   * Runs `body` in one transaction (`READ COMMITTED`, row locks for races) and commits it. A
   * connection lost before `COMMIT` was sent (or a deadlock) rolls back and runs `body` again with
   * backoff for up to {@link RETRY_WINDOW_MS}; a connection lost during `COMMIT` is thrown: its
   * outcome is unknown, and the caller's fencing (expected seq, idempotency tokens) decides.
   */
  transaction<T>(body: (sql: RunSql) => Promise<T>): Promise<T>;
  /** Ends the pool when the storage opened it (a product's own pool stays); once. */
  close(): Promise<void>;
}

/** How long a statement keeps retrying a lost connection before it fails. */
export const RETRY_WINDOW_MS = 10_000;
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens (or adopts) the pool of `target` for `schema` (lower-case letters, digits and `_`; it is
 * quoted into statements, so anything else is refused). Its statements read 64-bit integers as
 * numbers (times are epoch ms, far below 2^53) without touching `pg`'s global parsers.
 */
export function openPostgresConnection(
  target: PostgresTarget,
  schema: string,
  options: { maxConnections?: number } = {},
): PostgresConnection {
  if (!SCHEMA_PATTERN.test(schema)) {
    throw new RangeError(`The Postgres schema must match ${SCHEMA_PATTERN} (got "${schema}").`);
  }
  const pg = loadPg();
  const isOwnPool = !('pool' in target);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as never,
  };
  const config: PoolConfig = {
    connectionString: isOwnPool ? target.connectionString : '',
    max: options.maxConnections ?? 10,
  };
  // A product's pool is a `pg` Pool (PostgresPool names only what the package's types may show).
  const pool = 'pool' in target ? (target.pool as unknown as Pool) : new pg.Pool(config);
  // An idle client whose server went away emits 'error' on the pool: the next checkout reconnects.
  pool.on('error', () => undefined);
  const s = `"${schema}"`;
  let isEnded = false;
  const query: RunSql = (text, values) =>
    withRetry(async () => toResult(await pool.query({ text, values: values ?? [], types })));
  return {
    pool,
    s,
    schema,
    query,
    writeOnce: (text, values) =>
      withRetry(async () => {
        const client = await pool.connect();
        try {
          const result = toResult(await client.query({ text, values: values ?? [], types }));
          client.release();
          return result;
        } catch (error) {
          const isLost = isConnectionLoss(error);
          client.release(isLost ? (error as Error) : undefined);
          throw isLost ? new CommitOutcomeUnknownError(error) : error;
        }
      }),
    async transaction(body) {
      return withRetry(async () => {
        const client = await pool.connect();
        let isCommitting = false;
        try {
          await client.query('BEGIN');
          const value = await body(async (text, values) =>
            toResult(await client.query({ text, values: values ?? [], types })),
          );
          isCommitting = true;
          await client.query('COMMIT');
          client.release();
          return value;
        } catch (error) {
          await rollBack(client, error);
          throw isCommitting && isConnectionLoss(error) ? new CommitOutcomeUnknownError(error) : error;
        }
      });
    },
    async close() {
      if (!isOwnPool || isEnded) return;
      isEnded = true;
      await pool.end();
    },
  };
}

/** Thrown when the connection went away during `COMMIT`: the transaction may or may not have committed. */
export class CommitOutcomeUnknownError extends Error {
  constructor(cause: unknown) {
    super('The Postgres connection was lost while committing; the outcome is unknown.', { cause });
    this.name = 'CommitOutcomeUnknownError';
  }
}

/** Whether `error` says the connection is gone or not yet back (a restart, a network cut). */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (/^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN)$/.test(code)) return true;
    // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
    if (code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|Client has encountered a connection error|not queryable/.test(message);
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isConnectionLoss(error) || code === '40P01' || code === '40001';
}

async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RETRY_WINDOW_MS;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof CommitOutcomeUnknownError || !isRetryable(error) || Date.now() + delay > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random() / 2)));
    }
  }
}

async function rollBack(client: PoolClient, cause: unknown): Promise<void> {
  if (isConnectionLoss(cause)) {
    client.release(cause instanceof Error ? cause : true);
    return;
  }
  try {
    await client.query('ROLLBACK');
    client.release();
  } catch (error) {
    client.release(error instanceof Error ? error : true);
  }
}

function toResult<R>(result: { rows: R[]; rowCount: number | null }): SqlResult<R> {
  return { rows: result.rows, rowCount: result.rowCount ?? 0 };
}

/**
 * Loads `pg` when a Postgres storage is opened, not when the server module is imported: it is an
 * optional peer dependency, so a product on another storage never needs it.
 */
function loadPg(): typeof PgModule {
  return requireOptionalPeer<typeof PgModule>('pg', 'Postgres storage');
}
