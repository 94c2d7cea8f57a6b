/**
 * HTTP problems and the code catalog (docs/protocol.md §14).
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */

/** Codes an HTTP problem can carry, with their status. */
export const PROBLEM_STATUS = {
  PROTOCOL_VERSION_UNSUPPORTED: 400,
  UNAUTHENTICATED: 401,
  IDENTITY_CHANGED: 409,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  VALIDATION_FAILED: 422,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  AGENT_UNAVAILABLE: 503,
  INTERNAL: 500,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  RUN_ALREADY_ACTIVE: 409,
  RUN_NOT_ACTIVE: 409,
  RUN_NOT_ACCEPTING_INPUT: 409,
  RUN_NOT_RETRYABLE: 409,
  AGENT_VERSION_MISMATCH: 409,
  MODEL_UNAVAILABLE: 409,
  INSUFFICIENT_BALANCE: 402,
  UNSUPPORTED_CONTENT: 422,
  REASONING_EFFORT_UNSUPPORTED: 422,
  CONTEXT_REFS_UNSUPPORTED: 422,
  CONTEXT_REF_REJECTED: 422,
  INPUT_LIMIT: 429,
  CURSOR_INVALID: 400,
  CURSOR_EXPIRED: 410,
  INTERRUPT_NOT_FOUND: 404,
  INTERRUPT_ALREADY_RESOLVED: 409,
  INTERRUPT_EXPIRED: 410,
  ARGS_DIGEST_MISMATCH: 412,
  EDITED_ARGS_INVALID: 422,
  TOOL_CALL_NOT_FOUND: 404,
  TOOL_CALL_NOT_CLAIMABLE: 409,
  TOOL_CALL_ALREADY_CLAIMED: 409,
  EXECUTOR_NOT_CONNECTED: 409,
  RECEIPT_OUT_OF_ORDER: 409,
  TOOL_GRANT_INVALID: 403,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

/** Codes a run can end with in `RUN_ERROR`. */
export type RunErrorCode =
  | 'MODEL_ERROR'
  | 'MODEL_TIMEOUT'
  | 'MAX_ITERATIONS'
  | 'TOKEN_BUDGET_EXCEEDED'
  | 'COST_LIMIT_EXCEEDED'
  | 'TOOL_DISPATCH_ERROR'
  | 'RUN_TIMEOUT'
  | 'RUN_ABANDONED'
  | 'INTERNAL';

/** RFC 9457 problem body; `code` is the stable contract. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  code: ProblemCode | (string & {});
  detail?: string;
  requestId: string;
  retryable: boolean;
  retryAfterMs: number | null;
  runId: string | null;
  details: Record<string, unknown>;
}
