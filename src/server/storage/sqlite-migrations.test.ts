import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateSqlite, SQLITE_MIGRATIONS } from './sqlite-migrations.ts';
import { openSqliteStorage } from './sqlite-storage.ts';

describe('SQLite migrations', () => {
  let folder: string;
  let path: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agent-chat-migrate-'));
    path = join(folder, 'db.sqlite');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('creates the schema once, records each version and opens the file in WAL mode', async () => {
    const storage = openSqliteStorage({ path });
    await storage.close();
    await openSqliteStorage({ path }).close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT version, description FROM schema_version').all()).toEqual([
      { version: 1, description: SQLITE_MIGRATIONS[0]?.description },
      { version: 2, description: SQLITE_MIGRATIONS[1]?.description },
      { version: 3, description: SQLITE_MIGRATIONS[2]?.description },
      { version: 4, description: SQLITE_MIGRATIONS[3]?.description },
      { version: 5, description: SQLITE_MIGRATIONS[4]?.description },
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual([
      'ag_ui_segments',
      'ag_ui_threads',
      'events',
      'feedback',
      'idempotency',
      'leases',
      'messages',
      'runs',
      'schema_version',
      'sessions',
      'settings',
    ]);
    db.close();
  });

  it('upgrades a version 1 file in place: its sessions are kept and listed by activity', async () => {
    const v1 = new Database(path);
    migrateSqlite(v1, { migrations: SQLITE_MIGRATIONS.slice(0, 1) });
    v1.prepare(
      `INSERT INTO sessions (session_id, subject_id, agent_version_id, title, created_at, updated_at)
       VALUES ('ses_old', 'alice', 'agv_1', 'Kept', 1, 1)`,
    ).run();
    v1.close();
    const storage = openSqliteStorage({ path });
    expect((await storage.listSessions('alice', { limit: 5 }))?.items).toEqual([
      expect.objectContaining({ sessionId: 'ses_old', title: 'Kept' }),
    ]);
    await storage.close();
    const db = new Database(path, { readonly: true });
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sessions'")
      .pluck()
      .all();
    expect(indexes).toContain('sessions_by_subject_activity');
    expect(db.prepare('SELECT MAX(version) FROM schema_version').pluck().get()).toBe(5);
    db.close();
  });

  it('applies only the steps above the recorded version, in order', () => {
    const db = new Database(':memory:');
    const steps = [
      { version: 2, description: 'b', sql: 'ALTER TABLE t ADD COLUMN b TEXT' },
      { version: 1, description: 'a', sql: 'CREATE TABLE t (a TEXT)' },
    ];
    expect(migrateSqlite(db, { migrations: steps.slice(1), now: () => 5 })).toBe(1);
    expect(migrateSqlite(db, { migrations: steps, now: () => 7 })).toBe(2);
    expect(db.prepare('SELECT version, applied_at FROM schema_version ORDER BY version').all()).toEqual([
      { version: 1, applied_at: 5 },
      { version: 2, applied_at: 7 },
    ]);
    expect(db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all('t')).toEqual(['a', 'b']);
    db.close();
  });

  it('refuses a database written by a newer schema', () => {
    const db = new Database(':memory:');
    migrateSqlite(db, { migrations: [{ version: 3, description: 'future', sql: 'CREATE TABLE f (x)' }] });
    expect(() =>
      migrateSqlite(db, { migrations: [{ version: 1, description: 'a', sql: 'CREATE TABLE t (a)' }] }),
    ).toThrow('The database is at schema version 3; this server knows up to 1.');
    db.close();
  });
});
