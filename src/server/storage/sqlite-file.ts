import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Why a SQLite file could not be opened: `npm start` prints the message and the code, without a stack. */
export type StorageOpenErrorCode = 'STORAGE_FILE_DAMAGED' | 'STORAGE_FILE_UNREADABLE';

/**
 * Thrown by `openSqliteStorage` when its file is not a usable database: names the file, what is
 * wrong with it and what to do. The file is left as it was.
 */
export class StorageOpenError extends Error {
  constructor(
    readonly code: StorageOpenErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageOpenError';
  }
}

/** Owner-only: the file holds the identity and grant secrets and every conversation. */
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes the database file and what SQLite keeps beside it readable by the owner only, before
 * SQLite opens it: a missing folder is created `0700`, a missing file is created `0600`, and an
 * existing file, `-wal` or `-shm` is narrowed to `0600` (SQLite gives the `-wal` and `-shm` it
 * creates the mode of the database file, whatever the umask). An existing folder keeps its mode.
 */
export function preparePrivateSqliteFile(path: string): void {
  const folder = dirname(path);
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    chmodSync(folder, PRIVATE_FOLDER_MODE);
  }
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  }
}

/**
 * Turns what SQLite or the file system threw while opening `path` into a {@link StorageOpenError}
 * when it is about the file (damaged, not a database, unreadable); any other error is returned as is.
 */
export function describeSqliteOpenError(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return new StorageOpenError(
      'STORAGE_FILE_DAMAGED',
      path,
      `The SQLite file ${path} is damaged or not a database (${detail}). The server left it untouched: ` +
        'restore it from a backup, or move it (with its -wal and -shm files) aside to start with an empty database.',
      { cause: error },
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return new StorageOpenError(
      'STORAGE_FILE_UNREADABLE',
      path,
      `The SQLite file ${path} cannot be opened for writing (${detail}). ` +
        'Run the server as the file’s owner, or set AGENT_CHAT_DB to a file it may write.',
      { cause: error },
    );
  }
  return error;
}
