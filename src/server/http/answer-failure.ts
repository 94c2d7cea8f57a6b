import { DomainError } from '../domain-error.ts';
import { ProblemError, toProblemError } from './problem-error.ts';
import { RequestAbortedError } from './read-json-body.ts';
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
 * {@link ProblemError} among them) becomes its problem, anything unexpected `500 INTERNAL`
 * (reported to `onError`, never to the client). A client that went away
 * ({@link RequestAbortedError}) gets `Response.error()`: nobody reads it, and the Node adapter
 * closes the connection for it.
 */
export function answerFailure(options: AnswerFailureOptions): Response {
  const { error, requestId } = options;
  if (error instanceof RequestAbortedError) return Response.error();
  const isExpected = error instanceof DomainError;
  if (!isExpected) reportSafely(options);
  const problem = isExpected
    ? toProblemError(error)
    : new ProblemError({ code: 'INTERNAL', detail: `Quote reference ${requestId} when reporting this.` });
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
