import { DomainError } from '../domain-error.ts';
import { isStorageFull, STORAGE_FULL_RETRY_AFTER_MS } from '../storage/storage-full.ts';
import { ProblemError, toProblemError } from './problem-error.ts';
import { RequestAbortedError } from './request-body.ts';
import { problemResponse } from './respond.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';

/** Options of {@link answerFailure}. */
export interface AnswerFailureOptions {
  error: unknown;
  /** The request's method and path, for the report of an unexpected error. */
  method: string;
  path: string;
  requestId: string;
  typeBase: string;
  /** Told about unexpected errors only (never a problem the handler meant, never a client that left). */
  onError: (error: unknown, context: Record<string, unknown>) => void;
}

/**
 * The answer to a request that failed, and never throws: a {@link DomainError} (a
 * {@link ProblemError} among them) becomes its problem, anything unexpected `500 INTERNAL`, or
 * `503 STORAGE_FULL` when the storage had no room (reported to `onError`, never to the client). A
 * client that went away ({@link RequestAbortedError}) gets `Response.error()`: nobody reads it, and
 * the Node adapter closes the connection for it.
 */
export function answerFailure(options: AnswerFailureOptions): Response {
  const { error, requestId } = options;
  if (error instanceof RequestAbortedError) return Response.error();
  const isExpected = error instanceof DomainError;
  if (!isExpected) reportSafely(options);
  const problem = isExpected ? toProblemError(error) : unexpectedProblem(error, requestId);
  return problemResponse({
    error: new ProblemError({
      ...problem.init,
      status: problem.status,
      headers: { ...problem.init.headers, [REQUEST_ID_HEADER]: requestId },
    }),
    requestId,
    typeBase: options.typeBase,
  });
}

/**
 * An unexpected error's problem: `503 STORAGE_FULL` with `Retry-After` when the storage has no
 * room to write (it can pass; the operator still hears of it through `onError`), else `500 INTERNAL`.
 */
function unexpectedProblem(error: unknown, requestId: string): ProblemError {
  if (isStorageFull(error)) {
    return new ProblemError({
      code: 'STORAGE_FULL',
      detail: `The server cannot store more right now; retry later. Quote reference ${requestId} when reporting this.`,
      retryAfterMs: STORAGE_FULL_RETRY_AFTER_MS,
    });
  }
  return new ProblemError({ code: 'INTERNAL', detail: `Quote reference ${requestId} when reporting this.` });
}

function reportSafely(options: AnswerFailureOptions): void {
  try {
    options.onError(options.error, {
      requestId: options.requestId,
      method: options.method,
      // The path only: query strings stay out of logs.
      path: options.path,
    });
  } catch {
    // A throwing logger must not take the answer (or the process) down with it.
  }
}
