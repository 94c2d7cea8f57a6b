import type BetterSqlite3 from 'better-sqlite3';
import type { Doorbells } from '../doorbells.ts';
import type { createSqliteStatements } from '../sqlite-statements.ts';

/** The prepared statements of one SQLite store (`sqlite-statements.ts`). */
export type SqliteStatements = ReturnType<typeof createSqliteStatements>;

/** What the roles of one SQLite store share: the open database, its statements and the in-process doorbells. */
export interface SqliteContext {
  db: BetterSqlite3.Database;
  sql: SqliteStatements;
  doorbells: Doorbells;
}
