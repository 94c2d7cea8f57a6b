import type { Database } from 'better-sqlite3';

/** One versioned schema step; applied once, in order, inside its own transaction. */
export interface SqliteMigration {
  version: number;
  description: string;
  sql: string;
}

/**
 * The schema, as steps (docs/server.md, "Storage"). Never edit a released step: add the next
 * version. Event envelopes and snapshots are JSON text; times are epoch milliseconds.
 */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    description: 'sessions, runs, event logs, settled messages, idempotency records, leases, settings',
    sql: `
      CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE sessions (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL UNIQUE,
        subject_id TEXT NOT NULL,
        agent_version_id TEXT NOT NULL,
        title TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        active_run_id TEXT,
        last_run_id TEXT
      );
      CREATE INDEX sessions_by_subject ON sessions (subject_id, position);
      CREATE INDEX sessions_by_activity ON sessions (updated_at, position);
      CREATE TABLE runs (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES sessions (session_id),
        subject_id TEXT NOT NULL,
        user_message_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        start_json TEXT NOT NULL,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        ended_at INTEGER,
        final_snapshot_json TEXT,
        compacted INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX runs_by_session ON runs (session_id, position);
      CREATE INDEX runs_to_compact ON runs (ended_at) WHERE ended_at IS NOT NULL AND compacted = 0;
      CREATE TABLE events (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        envelope_json TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE messages (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        message_json TEXT NOT NULL,
        UNIQUE (session_id, message_id)
      );
      CREATE INDEX messages_by_session ON messages (session_id, position);
      CREATE INDEX messages_by_run ON messages (run_id, position);
      CREATE TABLE idempotency (
        record_id TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
        token TEXT,
        locked_until INTEGER,
        response_json TEXT,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX idempotency_by_expiry ON idempotency (expires_at);
      CREATE TABLE leases (
        run_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX leases_by_expiry ON leases (expires_at);
    `,
  },
  {
    version: 2,
    description: 'sessions listed by activity: index (subject_id, updated_at, position)',
    sql: `CREATE INDEX sessions_by_subject_activity ON sessions (subject_id, updated_at, position);`,
  },
  {
    version: 3,
    description: 'AG-UI threads bound to sessions and the AG-UI run serving each run',
    sql: `
      CREATE TABLE ag_ui_threads (
        subject_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        PRIMARY KEY (subject_id, thread_id)
      ) WITHOUT ROWID;
      CREATE INDEX ag_ui_threads_by_session ON ag_ui_threads (session_id);
      CREATE TABLE ag_ui_segments (
        run_id TEXT PRIMARY KEY,
        ag_ui_run_id TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    description: 'settled messages of a run answered again (a retry) leave the session history',
    sql: `ALTER TABLE messages ADD COLUMN in_history INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 5,
    description: "each person's rating of an answer, kept with its run",
    sql: `
      CREATE TABLE feedback (
        run_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
        comment TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, subject_id, message_id)
      ) WITHOUT ROWID;
    `,
  },
];

/**
 * Brings the database to the newest schema: creates `schema_version` when missing, then applies
 * each step above the recorded version in its own immediate transaction (so two processes that
 * start together apply each step once). Refuses a database newer than this code. Returns the
 * version the database is at.
 */
export function migrateSqlite(
  db: Database,
  options: { migrations?: readonly SqliteMigration[]; now?: () => number } = {},
): number {
  const migrations = options.migrations ?? SQLITE_MIGRATIONS;
  const now = options.now ?? Date.now;
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const currentVersion = (): number =>
    (db.prepare('SELECT MAX(version) AS version FROM schema_version').get() as { version: number | null }).version ?? 0;
  const newest = migrations.reduce((max, step) => Math.max(max, step.version), 0);
  if (currentVersion() > newest) {
    throw new Error(`The database is at schema version ${currentVersion()}; this server knows up to ${newest}.`);
  }
  for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
    db.transaction(() => {
      if (currentVersion() >= step.version) return;
      db.exec(step.sql);
      db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)').run(
        step.version,
        step.description,
        now(),
      );
    }).immediate();
  }
  return currentVersion();
}
