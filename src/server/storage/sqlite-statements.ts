import type { Database, Statement } from 'better-sqlite3';

/** A `sessions` row. */
export interface SessionRow {
  position: number;
  session_id: string;
  subject_id: string;
  agent_version_id: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  active_run_id: string | null;
  last_run_id: string | null;
}

/** A `feedback` row. */
export interface FeedbackRow {
  run_id: string;
  subject_id: string;
  message_id: string;
  rating: 'up' | 'down';
  comment: string | null;
  updated_at: number;
}

/** A `runs` row. */
export interface RunRow {
  run_id: string;
  session_id: string;
  subject_id: string;
  user_message_id: string;
  created_at: number;
  start_json: string;
  first_seq: number;
  last_seq: number;
  ended_at: number | null;
  final_snapshot_json: string | null;
  compacted: number;
}

/** A run as a link of its session's conversation tree (`AgentStorage.listTurnLinks`). */
export interface TurnLinkRow {
  run_id: string;
  user_message_id: string;
  /** `json_type` of `start.parentMessageId`: 'text', 'null', or null when the field is absent. */
  parent_type: string | null;
  parent_message_id: string | null;
  replaces_run_id: string | null;
  last_message_id: string | null;
}

interface IdempotencyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  token: string | null;
  locked_until: number | null;
  response_json: string | null;
  expires_at: number;
}

/** One prepared statement: its bind parameters and its row type. */
export interface SqliteStatement<P extends unknown[], R = unknown> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  run(...params: P): { changes: number };
}

/** Prepares every statement of the SQLite storage once (schema: `sqlite-migrations.ts`). */
export function createSqliteStatements(db: Database) {
  const statement = <P extends unknown[], R = unknown>(sql: string): SqliteStatement<P, R> => {
    const prepared: Statement<P, R> = db.prepare<P, R>(sql);
    return prepared;
  };
  const newest = 'ORDER BY position DESC LIMIT ?';
  return {
    session: statement<[string], SessionRow>('SELECT * FROM sessions WHERE session_id = ?'),
    sessionsOfSubject: statement<[string, number, number, number], SessionRow>(
      `SELECT * FROM sessions WHERE subject_id = ? AND (updated_at, position) < (?, ?)
       ORDER BY updated_at DESC, position DESC LIMIT ?`,
    ),
    sessionMessageCount: statement<[string], { count: number }>(
      `SELECT COUNT(*) AS count FROM messages WHERE session_id = ? AND in_history = 1
       AND json_extract(message_json, '$.role') != 'reasoning'`,
    ),
    setSessionTitle: statement<[string, string]>('UPDATE sessions SET title = ? WHERE session_id = ?'),
    insertSession: statement<[string, string, string, string | null, number, number, string | null, string | null]>(
      `INSERT INTO sessions (session_id, subject_id, agent_version_id, title, created_at, updated_at, active_run_id, last_run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    startSessionRun: statement<[string, string, number, string | null, string]>(
      `UPDATE sessions SET active_run_id = ?, last_run_id = ?, updated_at = ?, title = ? WHERE session_id = ?`,
    ),
    endSessionRun: statement<[string, number, string]>(
      `UPDATE sessions SET active_run_id = NULLIF(active_run_id, ?), updated_at = ? WHERE session_id = ?`,
    ),
    run: statement<[string], RunRow>('SELECT * FROM runs WHERE run_id = ?'),
    runLog: statement<[string], { session_id: string; last_seq: number; ended_at: number | null }>(
      'SELECT session_id, last_seq, ended_at FROM runs WHERE run_id = ?',
    ),
    runIdsOfSession: statement<[string], { run_id: string }>(
      'SELECT run_id FROM runs WHERE session_id = ? ORDER BY position',
    ),
    // Each run's last settled message: the terminal append writes them in order (in history or not).
    turnLinksOfSession: statement<[string], TurnLinkRow>(
      `SELECT r.run_id, r.user_message_id,
         json_type(r.start_json, '$.parentMessageId') AS parent_type,
         json_extract(r.start_json, '$.parentMessageId') AS parent_message_id,
         json_extract(r.start_json, '$.replacesRunId') AS replaces_run_id,
         (SELECT m.message_id FROM messages m WHERE m.run_id = r.run_id ORDER BY m.position DESC LIMIT 1)
           AS last_message_id
       FROM runs r WHERE r.session_id = ? ORDER BY r.position`,
    ),
    finalSnapshotsOfSession: statement<[string], { run_id: string; final_snapshot_json: string }>(
      'SELECT run_id, final_snapshot_json FROM runs WHERE session_id = ? AND final_snapshot_json IS NOT NULL ORDER BY position',
    ),
    insertRun: statement<[string, string, string, string, number, string]>(
      `INSERT INTO runs (run_id, session_id, subject_id, user_message_id, created_at, start_json, first_seq, last_seq)
       VALUES (?, ?, ?, ?, ?, ?, 1, 1)`,
    ),
    advanceRun: statement<[number, string]>('UPDATE runs SET last_seq = ? WHERE run_id = ?'),
    endRun: statement<[number, number, string, string]>(
      'UPDATE runs SET last_seq = ?, ended_at = ?, final_snapshot_json = ? WHERE run_id = ?',
    ),
    runsToCompact: statement<[number, number], { run_id: string }>(
      'SELECT run_id FROM runs WHERE ended_at IS NOT NULL AND compacted = 0 AND ended_at < ? ORDER BY ended_at LIMIT ?',
    ),
    markCompacted: statement<[string]>('UPDATE runs SET compacted = 1, first_seq = last_seq + 1 WHERE run_id = ?'),
    insertEvent: statement<[string, number, string]>(
      'INSERT INTO events (run_id, seq, envelope_json) VALUES (?, ?, ?)',
    ),
    events: statement<[string, number, number], { envelope_json: string }>(
      'SELECT envelope_json FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
    deleteEvents: statement<[string]>('DELETE FROM events WHERE run_id = ?'),
    insertMessage: statement<[string, string, string, string]>(
      'INSERT INTO messages (session_id, run_id, message_id, message_json) VALUES (?, ?, ?, ?)',
    ),
    messagesOfRun: statement<[string], { message_json: string }>(
      'SELECT message_json FROM messages WHERE run_id = ? ORDER BY position',
    ),
    messagesOfSession: statement<[string, number, number], { message_json: string }>(
      `SELECT message_json FROM messages WHERE session_id = ? AND in_history = 1 AND position < ? ${newest}`,
    ),
    messagePosition: statement<[string, string], { position: number }>(
      'SELECT position FROM messages WHERE session_id = ? AND message_id = ? AND in_history = 1',
    ),
    // The messages of a run of the session leave its history (0) or come back (1), at their positions.
    setRunInHistory: statement<[0 | 1, string, string]>(
      'UPDATE messages SET in_history = ? WHERE session_id = ? AND run_id = ?',
    ),
    idempotencyRecord: statement<[string], IdempotencyRow>('SELECT * FROM idempotency WHERE record_id = ?'),
    idempotencyLock: statement<[string], { state: string; token: string | null }>(
      'SELECT state, token FROM idempotency WHERE record_id = ?',
    ),
    upsertIdempotency: statement<[string, string, string, number, number]>(
      `INSERT OR REPLACE INTO idempotency (record_id, fingerprint, state, token, locked_until, response_json, expires_at)
       VALUES (?, ?, 'in_progress', ?, ?, NULL, ?)`,
    ),
    completeIdempotency: statement<[string, number, string]>(
      `UPDATE idempotency SET state = 'completed', token = NULL, locked_until = NULL, response_json = ?, expires_at = ?
       WHERE record_id = ?`,
    ),
    abandonIdempotency: statement<[string, string]>(
      "DELETE FROM idempotency WHERE record_id = ? AND state = 'in_progress' AND token = ?",
    ),
    deleteExpiredIdempotency: statement<[number]>('DELETE FROM idempotency WHERE expires_at <= ?'),
    upsertLease: statement<[string, string, number]>(
      'INSERT OR REPLACE INTO leases (run_id, owner, expires_at) VALUES (?, ?, ?)',
    ),
    renewLease: statement<[number, string, string]>('UPDATE leases SET expires_at = ? WHERE run_id = ? AND owner = ?'),
    takeExpiredLease: statement<[string, number, string, number, string]>(
      `UPDATE leases SET owner = ?, expires_at = ? WHERE run_id = ? AND expires_at <= ?
       AND NOT EXISTS (SELECT 1 FROM runs WHERE run_id = ? AND ended_at IS NOT NULL)`,
    ),
    deleteLease: statement<[string]>('DELETE FROM leases WHERE run_id = ?'),
    expiredLeases: statement<[number, number], { run_id: string; owner: string; expires_at: number }>(
      'SELECT run_id, owner, expires_at FROM leases WHERE expires_at <= ? ORDER BY expires_at LIMIT ?',
    ),
    counts: statement<[], { sessions: number; runs: number }>(
      'SELECT (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT COUNT(*) FROM runs) AS runs',
    ),
    subjectSessionCount: statement<[string], { count: number }>(
      'SELECT COUNT(*) AS count FROM sessions WHERE subject_id = ?',
    ),
    evictableOfSubject: statement<[string, string], { session_id: string }>(
      `SELECT session_id FROM sessions WHERE subject_id = ? AND active_run_id IS NULL AND session_id != ?
       ORDER BY updated_at, position`,
    ),
    // Sessions that may go, idle since a cutoff, oldest first: the idle TTL's (`now -
    // sessionIdleTtlMs`) and, one at a time, the store caps' (`now - protectActiveSessionsMs`).
    evictableByActivity: statement<[string, number], { session_id: string }>(
      `SELECT session_id FROM sessions WHERE active_run_id IS NULL AND session_id != ? AND updated_at <= ?
       ORDER BY updated_at, position`,
    ),
    bindAgUiThread: statement<[string, string, string]>(
      `INSERT OR REPLACE INTO ag_ui_threads (subject_id, thread_id, session_id)
       SELECT ?, ?, session_id FROM sessions WHERE session_id = ?`,
    ),
    agUiThread: statement<[string, string], { session_id: string }>(
      'SELECT session_id FROM ag_ui_threads WHERE subject_id = ? AND thread_id = ?',
    ),
    deleteAgUiThreadsOfSession: statement<[string]>('DELETE FROM ag_ui_threads WHERE session_id = ?'),
    setAgUiSegment: statement<[string, string]>(
      'INSERT OR REPLACE INTO ag_ui_segments (run_id, ag_ui_run_id) SELECT run_id, ? FROM runs WHERE run_id = ?',
    ),
    agUiSegment: statement<[string], { ag_ui_run_id: string }>(
      'SELECT ag_ui_run_id FROM ag_ui_segments WHERE run_id = ?',
    ),
    deleteAgUiSegment: statement<[string]>('DELETE FROM ag_ui_segments WHERE run_id = ?'),
    putFeedback: statement<[string, string, string, string | null, number, string]>(
      `INSERT OR REPLACE INTO feedback (run_id, subject_id, message_id, rating, comment, updated_at)
       SELECT run_id, ?, ?, ?, ?, ? FROM runs WHERE run_id = ?`,
    ),
    feedbackOfSubject: statement<[string, string], FeedbackRow>(
      'SELECT * FROM feedback WHERE run_id = ? AND subject_id = ? ORDER BY message_id',
    ),
    deleteRunFeedback: statement<[string]>('DELETE FROM feedback WHERE run_id = ?'),
    deleteRunEvents: statement<[string]>('DELETE FROM events WHERE run_id = ?'),
    deleteRunMessages: statement<[string]>('DELETE FROM messages WHERE run_id = ?'),
    deleteRun: statement<[string]>('DELETE FROM runs WHERE run_id = ?'),
    deleteSession: statement<[string]>('DELETE FROM sessions WHERE session_id = ?'),
    insertSetting: statement<[string, string]>('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)'),
    setting: statement<[string], { value: string }>('SELECT value FROM settings WHERE name = ?'),
    upsertSetting: statement<[string, string]>(
      'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    ),
  };
}
