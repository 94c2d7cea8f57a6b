import { StorageOpenError } from '../src/server/storage/sqlite-file.ts';

/**
 * What `npm start` does with a start that failed: a storage it cannot open (`StorageOpenError`)
 * is printed as one line, its code and message (which name the file and what to do), and the
 * process exits 1; any other error is thrown on, with its stack.
 */
export function exitOnStartupError(error: unknown): never {
  if (error instanceof StorageOpenError) {
    console.error(`agent-chat: ${error.code}: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
