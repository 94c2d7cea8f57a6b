import type { ProblemCode } from '../core/protocol.ts';

/** What a refusal below the routes says, in the protocol's terms and without HTTP. */
export interface DomainErrorInit {
  code: ProblemCode;
  detail?: string;
  runId?: string;
  details?: Record<string, unknown>;
  /** Extra top-level members of the answer (e.g. `activeRunId`). */
  extra?: Record<string, unknown>;
  /** When trying again can succeed. */
  retryAfterMs?: number;
}

/**
 * An expected refusal with a protocol code, raised by the domain (runs, idempotency, limits,
 * storage, the agent loop): never a crash. The domain never speaks HTTP; the handler answers this
 * as a problem with the code's status (docs/protocol.md §14), and `ProblemError`, what the routes
 * throw, adds HTTP's own parts (a status override, headers).
 */
export class DomainError extends Error {
  readonly init: DomainErrorInit;

  constructor(init: DomainErrorInit) {
    super(init.detail ?? init.code);
    this.name = 'DomainError';
    this.init = init;
  }
}

/** Throws a {@link DomainError}; reads well in checks (`refuse({ code, detail })`). */
export function refuse(init: DomainErrorInit): never {
  throw new DomainError(init);
}
