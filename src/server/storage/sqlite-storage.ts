import type BetterSqlite3 from 'better-sqlite3';
import { requireOptionalPeer } from '../optional-peer.ts';
import { createDoorbells } from './doorbells.ts';
import { createSqliteAgUiStorage } from './sqlite/sqlite-ag-ui.ts';
import { createSqliteAppends } from './sqlite/sqlite-appends.ts';
import type { SqliteContext } from './sqlite/sqlite-context.ts';
import { createSqliteDeletes } from './sqlite/sqlite-deletes.ts';
import { createSqliteFeedbackStorage } from './sqlite/sqlite-feedback.ts';
import { createSqliteIdempotencyStorage } from './sqlite/sqlite-idempotency.ts';
import { createSqliteRetentionStorage } from './sqlite/sqlite-retention.ts';
import { createSqliteRunLeaseStorage } from './sqlite/sqlite-run-leases.ts';
import { createSqliteRunStorage } from './sqlite/sqlite-runs.ts';
import { createSqliteSessionStorage } from './sqlite/sqlite-sessions.ts';
import { createSqliteSettingStorage } from './sqlite/sqlite-settings.ts';
import { describeSqliteOpenError, preparePrivateSqliteFile } from './sqlite-file.ts';
import { migrateSqlite } from './sqlite-migrations.ts';
import { createSqliteStatements } from './sqlite-statements.ts';
import type { AgentStorage } from './storage-port.ts';

/** Options of {@link openSqliteStorage}. */
export interface SqliteStorageOptions {
  /** A file path (its folder is created), or `:memory:` for a private in-memory database. */
  path: string;
  /** How long a write waits for another process's lock before failing. Default 5 000 ms. */
  busyTimeoutMs?: number;
  /**
   * The most the database file may grow to (SQLite's `max_page_count`, never below its size when
   * opened). Past it a write that needs a new page fails with `SQLITE_FULL`, as on a full disk.
   * Default: no cap.
   */
  maxBytes?: number;
}

/**
 * Opens the SQLite {@link AgentStorage} (one file, WAL, `synchronous=NORMAL`: a committed append
 * survives a killed process; an OS crash may lose the last few). Runs the versioned migrations
 * first. Every write is one immediate transaction, so several processes may share the file; the
 * doorbell of live tails is in-process only. The folder, file, `-wal` and `-shm` are owner-only
 * (`preparePrivateSqliteFile`); a damaged or unreadable file throws a `StorageOpenError` naming it.
 */
export function openSqliteStorage(options: SqliteStorageOptions): AgentStorage {
  const Database = loadBetterSqlite3();
  let db: BetterSqlite3.Database | undefined;
  try {
    if (options.path !== ':memory:') preparePrivateSqliteFile(options.path);
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrateSqlite(db);
    if (options.maxBytes !== undefined) {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
    }
  } catch (error) {
    db?.close();
    throw describeSqliteOpenError(options.path, error);
  }
  return createSqliteStorage(db);
}

/**
 * Composes the store over an open, migrated database: its roles (`sqlite/`) share the database,
 * its prepared statements and the in-process doorbells.
 */
function createSqliteStorage(db: BetterSqlite3.Database): AgentStorage {
  const context: SqliteContext = { db, sql: createSqliteStatements(db), doorbells: createDoorbells() };
  const appends = createSqliteAppends(context);
  const deletes = createSqliteDeletes(context.sql);
  const writeReadinessMark = db.transaction((value: string) => context.sql.upsertSetting.run('readiness_mark', value));
  return {
    ...createSqliteRunStorage(context, appends),
    ...createSqliteSessionStorage(context, deletes),
    ...createSqliteRetentionStorage(context, deletes),
    ...createSqliteIdempotencyStorage(context),
    ...createSqliteRunLeaseStorage(context),
    ...createSqliteAgUiStorage(context),
    ...createSqliteFeedbackStorage(context),
    ...createSqliteSettingStorage(context),
    async checkReady() {
      // A write that commits proves the file is open, writable and not locked out.
      writeReadinessMark.immediate(String(Date.now()));
    },
    async close() {
      if (!db.open) return;
      appends.flushPending();
      db.close();
    },
  };
}

/**
 * Loads `better-sqlite3` when a SQLite storage is opened, not when the server module is imported:
 * it is an optional peer dependency, so a product on another storage never needs the native addon.
 */
function loadBetterSqlite3(): typeof BetterSqlite3 {
  return requireOptionalPeer<typeof BetterSqlite3>('better-sqlite3', 'SQLite storage');
}
