import { REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from '../protocol.ts';
import type { ProblemCode } from '../protocol.ts';
import { isPlainObject } from '../is-plain-object.ts';
import { parseRetryAfter } from './parse-retry-after.ts';

/** Codes the transport itself produces when the server gave no problem body to name one. */
export type TransportErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'HTTP_ERROR' | 'INVALID_RESPONSE';

/** A problem code from the server, a transport code, or a code another core layer defines. */
export type AgentErrorCode = ProblemCode | TransportErrorCode | (string & {});

/** What an {@link AgentError} is made of; omitted fields default to `null`, `false` or `{}`. */
export interface AgentErrorInit {
  code: AgentErrorCode;
  message: string;
  status?: number | null;
  requestId?: string | null;
  retryable?: boolean;
  retryAfterMs?: number | null;
  runId?: string | null;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The facts about an HTTP error response that do not come from its body. */
export interface HttpErrorContext {
  status: number;
  /** `X-Request-Id` of the response, when present. */
  requestId: string | null;
  /** Parsed `Retry-After`, when present. */
  retryAfterMs: number | null;
}

/**
 * An error with a stable `code`: the one error type every core API rejects with.
 *
 * `status` is the HTTP status (null when no response arrived); `requestId` is the server's
 * correlation id to show as the error reference; `retryable` is the server's hint (or, with no
 * hint, whether the status is 5xx or the failure was a network error/timeout); `retryAfterMs`
 * is the least wait the server asked for; `runId` names a run the error is about. A 429 is
 * retryable only when its body says `retryable: true` or it carries `Retry-After`.
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  declare readonly code: AgentErrorCode;
  declare readonly status: number | null;
  declare readonly requestId: string | null;
  declare readonly retryable: boolean;
  declare readonly retryAfterMs: number | null;
  declare readonly runId: string | null;
  declare readonly details: Record<string, unknown>;

  constructor(init: AgentErrorInit) {
    super(init.message, init);
    // `super` took `message` and `cause` (non-enumerable); assigning them again keeps them so.
    Object.assign(
      this,
      { status: null, requestId: null, retryable: false, retryAfterMs: null, runId: null, details: {} },
      init,
    );
  }
}

/** Tells whether a value is an {@link AgentError}. */
export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

/**
 * Builds an error from a parsed JSON error body: an RFC 9457 `ProblemDetails`, or any JSON
 * object (`code`, `message` or `error` are used when present); `{}` for a body that is not JSON
 * (e.g. a proxy's HTML 502 page) gives the status's code and an `HTTP 502` message. `details` holds
 * every member of the body, with the body's own `details` spread over them (so `activeRunId` is found
 * at the top level or inside `details`). The header's request id wins over the body's; the larger of
 * the header's and the body's retry delay wins.
 */
export function agentErrorFromProblem(body: Record<string, unknown>, context: HttpErrorContext): AgentError {
  const code = readString(body.code) ?? STATUS_CODES[context.status] ?? 'HTTP_ERROR';
  const retryAfterMs = Math.max(
    context.retryAfterMs ?? -1,
    typeof body.retryAfterMs === 'number' ? body.retryAfterMs : -1,
  );
  return new AgentError({
    code,
    message:
      readString(body.detail) ??
      readString(body.message) ??
      readString(body.error) ??
      readString(body.title) ??
      `HTTP ${context.status}`,
    status: context.status,
    requestId: context.requestId ?? readString(body.requestId),
    // A 429 is retried only when the server says so: `retryable: true` or a Retry-After header.
    retryable:
      context.status === 429
        ? body.retryable === true || context.retryAfterMs !== null
        : typeof body.retryable === 'boolean'
          ? body.retryable
          : isRetryableStatus(context.status, code),
    retryAfterMs: retryAfterMs < 0 ? null : retryAfterMs,
    runId: readString(body.runId),
    details: isPlainObject(body.details) ? { ...body, ...body.details } : { ...body },
  });
}

/**
 * Reads an error response's body and builds its error: JSON bodies (`application/problem+json`,
 * `application/json`, any `+json`) through {@link agentErrorFromProblem}, anything else as an
 * empty body. `Retry-After` is read relative to `nowMs`. Never rejects.
 */
export async function agentErrorFromResponse(response: Response, options: { nowMs: number }): Promise<AgentError> {
  const context: HttpErrorContext = {
    status: response.status,
    requestId: response.headers.get(REQUEST_ID_HEADER),
    retryAfterMs: parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER), options.nowMs),
  };
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text().catch(() => '');
  const body = /json/i.test(contentType) ? parseJsonObject(text) : null;
  return agentErrorFromProblem(body ?? {}, context);
}

/** Failures the client names itself, with no problem body: no response or none in time, an abort, an unreadable answer. */
export type AgentFailureCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'INVALID_RESPONSE';

const FAILURE_MESSAGES: Record<AgentFailureCode, string> = {
  NETWORK_ERROR: 'The server could not be reached.',
  TIMEOUT: 'The server did not answer in time.',
  ABORTED: 'The request was aborted.',
  INVALID_RESPONSE: 'The server sent an unreadable answer.',
};

/**
 * Builds the error of a failure without a problem body, with the code's one message; only
 * `NETWORK_ERROR` and `TIMEOUT` are retryable. `init` adds the facts (e.g. `cause`, `status`, `requestId`).
 */
export function agentFailure(code: AgentFailureCode, init: Omit<AgentErrorInit, 'code' | 'message'> = {}): AgentError {
  return new AgentError({
    code,
    message: FAILURE_MESSAGES[code],
    retryable: code === 'NETWORK_ERROR' || code === 'TIMEOUT',
    ...init,
  });
}

/** Codes for the statuses a caller acts on without a body (sign-in, access, slow down); the rest are `HTTP_ERROR`. */
const STATUS_CODES: Record<number, ProblemCode> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  429: 'RATE_LIMITED',
};

/**
 * Whether a status (with its code) may be retried with the same key and body (docs/protocol.md §10):
 * 5xx and `409 IDEMPOTENCY_KEY_IN_USE`. A 429 depends on the server's word, not on its status
 * ({@link agentErrorFromProblem}).
 */
export function isRetryableStatus(status: number, code: string): boolean {
  return status >= 500 || (status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE');
}

function readString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}
