import type { ProblemCode } from '../../core/protocol.ts';
import { PROBLEM_STATUS } from '../../core/protocol.ts';

/** What a route throws to answer with a problem; the handler turns it into `problem+json`. */
export interface ProblemInit {
  code: ProblemCode;
  detail?: string;
  /** Overrides the code's catalog status (e.g. `409 AGENT_UNAVAILABLE` on create). */
  status?: number;
  runId?: string;
  details?: Record<string, unknown>;
  /** Extra top-level members of the body (e.g. `activeRunId`). */
  extra?: Record<string, unknown>;
  retryAfterMs?: number;
  /** Extra response headers (e.g. `Allow` on 405). */
  headers?: Record<string, string>;
}

/** An expected failure with a protocol code (never a crash): the handler answers it as RFC 9457. */
export class ProblemError extends Error {
  readonly init: ProblemInit;
  readonly status: number;

  constructor(init: ProblemInit) {
    super(init.detail ?? init.code);
    this.name = 'ProblemError';
    this.init = init;
    this.status = init.status ?? PROBLEM_STATUS[init.code];
  }
}

/** Throws a {@link ProblemError}; reads well in validation code (`fail({ code, detail })`). */
export function fail(init: ProblemInit): never {
  throw new ProblemError(init);
}
