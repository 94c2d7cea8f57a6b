import { createHmac } from 'node:crypto';

/** How much the server logs, most to least: `debug` ⊃ `info` ⊃ `warn` ⊃ `error`; `silent` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** One structured log line (docs/operations.md, "Logs"). `event` names what happened; the rest is context. */
export interface LogRecord {
  /** ISO-8601 time of the line. */
  time: string;
  level: Exclude<LogLevel, 'silent'>;
  /** What happened, in snake_case: `run_ended`, `request_failed`, `model_retry`, `storage_failed`… */
  event: string;
  requestId?: string;
  runId?: string;
  sessionId?: string;
  /** A keyed hash of the subject's id (never the id itself). */
  subject?: string;
  [field: string]: unknown;
}

/** Where log lines go. Default: one JSON line each on stderr. */
export type LogSink = (record: LogRecord) => void;

/** Writes structured lines at or above a level; `isEnabled` lets callers skip building a line nobody reads. */
export interface StructuredLog {
  isEnabled(level: Exclude<LogLevel, 'silent'>): boolean;
  write(level: Exclude<LogLevel, 'silent'>, event: string, fields: Omit<LogRecord, 'time' | 'level' | 'event'>): void;
  /** The hashed form of a subject id for the `subject` field. */
  hashSubject(subjectId: string): string;
  /** What the line says of an error: its name and code, plus message and stack when sensitive fields are on. */
  describeError(error: unknown): Record<string, unknown>;
}

const RANKS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Reads `AGENT_CHAT_LOG_LEVEL`-style text; undefined when it names no level. */
export function parseLogLevel(text: string | undefined): LogLevel | undefined {
  const level = text?.trim().toLowerCase();
  return level !== undefined && level in RANKS ? (level as LogLevel) : undefined;
}

/** Options of {@link createStructuredLog}. */
export interface StructuredLogOptions {
  level: LogLevel;
  sink?: LogSink;
  /** Key of the subject hash (read per line): lines of one user correlate across processes that share it. */
  subjectKey: () => string;
  /** Adds error messages and stacks (which may quote user text or provider answers). Default false. */
  isSensitive?: boolean;
}

/**
 * Creates the handler's structured log: one JSON object per line, never user text or secrets
 * unless `isSensitive`. A sink that throws loses its line, never the request.
 */
export function createStructuredLog(options: StructuredLogOptions): StructuredLog {
  const threshold = RANKS[options.level];
  const sink = options.sink ?? ((record: LogRecord) => process.stderr.write(`${JSON.stringify(record)}\n`));
  return {
    isEnabled: (level) => RANKS[level] >= threshold,
    write(level, event, fields) {
      if (RANKS[level] < threshold) return;
      try {
        sink({ time: new Date().toISOString(), level, event, ...dropUndefined(fields) });
      } catch {
        // A failing sink must not take a request or a run down with it.
      }
    },
    hashSubject: (subjectId) =>
      createHmac('sha256', options.subjectKey()).update(subjectId).digest('base64url').slice(0, 16),
    describeError(error) {
      if (!(error instanceof Error)) return { errorType: typeof error };
      const code = (error as { code?: unknown }).code;
      return {
        errorType: error.name,
        ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
        ...(options.isSensitive === true ? { errorMessage: error.message, stack: error.stack } : {}),
      };
    },
  };
}

function dropUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) kept[key] = value;
  return kept;
}
