import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../domain-error.ts';
import { ProblemError, toProblemError } from './problem-error.ts';
import { RequestAbortedError } from './read-json-body.ts';
import { sendProblem } from './respond.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';

/** Options of {@link answerFailure}. */
export interface AnswerFailureOptions {
  req: IncomingMessage;
  res: ServerResponse;
  error: unknown;
  requestId: string;
  typeBase: string;
  /** Told about unexpected errors only (never a problem the handler meant, never a client that left). */
  onError: (error: unknown, context: Record<string, unknown>) => void;
}

/**
 * Answers a request that failed, and never throws: a {@link DomainError} (a {@link ProblemError}
 * among them) becomes its problem,
 * anything unexpected `500 INTERNAL` (reported to `onError`, never to the client), a client that
 * went away ({@link RequestAbortedError}) or a response already under way only closes the
 * connection. If even writing the problem fails, the connection is destroyed.
 */
export function answerFailure(options: AnswerFailureOptions): void {
  const { res, error, requestId } = options;
  try {
    if (error instanceof RequestAbortedError || res.headersSent) {
      res.destroy();
      return;
    }
    const isExpected = error instanceof DomainError;
    if (!isExpected) reportSafely(options);
    const problem = isExpected
      ? toProblemError(error)
      : new ProblemError({ code: 'INTERNAL', detail: `Quote reference ${requestId} when reporting this.` });
    sendProblem(res, {
      error: new ProblemError({
        ...problem.init,
        status: problem.status,
        headers: { ...problem.init.headers, [REQUEST_ID_HEADER]: requestId },
      }),
      requestId,
      typeBase: options.typeBase,
    });
  } catch (writeError) {
    reportSafely({ ...options, error: writeError });
    res.destroy();
  }
}

function reportSafely(options: AnswerFailureOptions): void {
  try {
    options.onError(options.error, {
      requestId: options.requestId,
      method: options.req.method,
      // The path only: query strings stay out of logs.
      path: options.req.url?.split('?')[0],
    });
  } catch {
    // A throwing logger must not take the answer (or the process) down with it.
  }
}
