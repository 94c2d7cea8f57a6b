import type { DomainErrorInit } from '../domain-error.ts';
import { DomainError } from '../domain-error.ts';
import { PROBLEM_STATUS } from '../../core/protocol.ts';

/** What a route throws to answer with a problem; the handler turns it into `problem+json`. */
export interface ProblemInit extends DomainErrorInit {
  /** Overrides the code's catalog status (e.g. `409 AGENT_UNAVAILABLE` on create). */
  status?: number;
  /** Extra response headers (e.g. `Allow` on 405). */
  headers?: Record<string, string>;
}

/**
 * An expected failure with a protocol code (never a crash), thrown by the HTTP layer: a
 * {@link DomainError} with HTTP's own parts. The handler answers it as RFC 9457.
 */
export class ProblemError extends DomainError {
  declare readonly init: ProblemInit;
  readonly status: number;

  constructor(init: ProblemInit) {
    super(init);
    this.name = 'ProblemError';
    this.status = init.status ?? PROBLEM_STATUS[init.code];
  }
}

/** Throws a {@link ProblemError}; reads well in validation code (`fail({ code, detail })`). */
export function fail(init: ProblemInit): never {
  throw new ProblemError(init);
}

/** The problem a route answers for `error`: itself when it is one, else a domain refusal with its code's status. */
export function toProblemError(error: DomainError): ProblemError {
  return error instanceof ProblemError ? error : new ProblemError(error.init);
}
