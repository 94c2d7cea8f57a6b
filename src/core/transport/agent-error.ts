import { HEADERS } from '../protocol.ts';
import type { ProblemCode } from '../protocol.ts';
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

/** The JSON form of an {@link AgentError} (`cause` is left out: it may not be serializable). */
export interface AgentErrorJson {
  name: 'AgentError';
  code: AgentErrorCode;
  message: string;
  status: number | null;
  requestId: string | null;
  retryable: boolean;
  retryAfterMs: number | null;
  runId: string | null;
  details: Record<string, unknown>;
}

/** The facts about an HTTP error response that do not come from its body. */
export interface HttpErrorContext {
  status: number;
  statusText?: string;
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
 * hint, whether the status is 5xx/429 or the failure was a network error/timeout); `retryAfterMs`
 * is the least wait the server asked for; `runId` names a run the error is about.
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: AgentErrorCode;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly runId: string | null;
  readonly details: Record<string, unknown>;

  constructor(init: AgentErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status ?? null;
    this.requestId = init.requestId ?? null;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.runId = init.runId ?? null;
    this.details = init.details ?? {};
  }

  /** Returns the serializable fields, for logs and for state the UI renders. */
  toJSON(): AgentErrorJson {
    // The own fields are exactly the JSON form but for `message`, which `Error` keeps non-enumerable.
    return { ...this, message: this.message };
  }
}

/** Tells whether a value is an {@link AgentError}. */
export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

/**
 * Builds an error from a parsed JSON error body: an RFC 9457 `ProblemDetails`, or any JSON
 * object (`code`, `message` or `error` are used when present); `{}` for a body that is not JSON
 * (e.g. a proxy's HTML 502 page) gives the status's code and an `HTTP 502 Bad Gateway` message. Unknown top-level members are
 * kept in `details` beside the body's own `details` (which wins on a clash). The header's
 * request id wins over the body's; the larger of the header's and the body's retry delay wins.
 */
export function agentErrorFromProblem(body: Record<string, unknown>, context: HttpErrorContext): AgentError {
  const code = readString(body.code) ?? STATUS_CODES[context.status] ?? 'HTTP_ERROR';
  const bodyRetryAfterMs = typeof body.retryAfterMs === 'number' && body.retryAfterMs >= 0 ? body.retryAfterMs : null;
  const retryAfterMs =
    context.retryAfterMs === null ? bodyRetryAfterMs : Math.max(context.retryAfterMs, bodyRetryAfterMs ?? 0);
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!PROBLEM_MEMBERS.has(key)) details[key] = value;
  if (isPlainObject(body.details)) Object.assign(details, body.details);
  return new AgentError({
    code,
    message:
      readString(body.detail) ??
      readString(body.message) ??
      readString(body.error) ??
      readString(body.title) ??
      describeStatus(context),
    status: context.status,
    requestId: context.requestId ?? readString(body.requestId),
    retryable: typeof body.retryable === 'boolean' ? body.retryable : isRetryableStatus(context.status, code),
    retryAfterMs,
    runId: readString(body.runId),
    details,
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
    statusText: response.statusText,
    requestId: response.headers.get(HEADERS.requestId),
    retryAfterMs: parseRetryAfter(response.headers.get(HEADERS.retryAfter), options.nowMs),
  };
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text().catch(() => '');
  return agentErrorFromProblem((/json/i.test(contentType) && parseJsonObject(text)) || {}, context);
}

/** Failures the client names itself, with no problem body: no response, an abort, an unreadable answer. */
export type AgentFailureCode = 'NETWORK_ERROR' | 'ABORTED' | 'INVALID_RESPONSE';

const FAILURE_MESSAGES: Record<AgentFailureCode, string> = {
  NETWORK_ERROR: 'The server could not be reached.',
  ABORTED: 'The request was aborted.',
  INVALID_RESPONSE: 'The server sent an answer this client cannot read.',
};

/**
 * Builds the error of a failure without a problem body, with the code's one message; only
 * `NETWORK_ERROR` is retryable. `init` adds the facts (e.g. `cause`, `status`, `requestId`).
 */
export function agentFailure(code: AgentFailureCode, init: Omit<AgentErrorInit, 'code' | 'message'> = {}): AgentError {
  return new AgentError({ code, message: FAILURE_MESSAGES[code], retryable: code === 'NETWORK_ERROR', ...init });
}

/** Builds the error for an attempt that outlived its timeout (`TIMEOUT`, retryable). */
export function agentErrorFromTimeout(timeoutMs: number, cause?: unknown): AgentError {
  return new AgentError({
    code: 'TIMEOUT',
    message: `The server did not answer within ${timeoutMs} ms.`,
    retryable: true,
    details: { timeoutMs },
    cause,
  });
}

const PROBLEM_MEMBERS = new Set([
  'type', 'title', 'status', 'code', 'detail', 'message', 'error', 'requestId', 'retryable', 'retryAfterMs', 'runId', 'details',
]);

/** Codes for statuses whose meaning needs no body (PROTOCOL §3.14); the rest are `HTTP_ERROR`. */
const STATUS_CODES: Record<number, ProblemCode> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Whether a status (with its code) may be retried with the same key and body (PROTOCOL §3.10): 5xx, 429, `409 IDEMPOTENCY_KEY_IN_USE`. */
export function isRetryableStatus(status: number, code: string): boolean {
  return status >= 500 || status === 429 || (status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE');
}

function describeStatus(context: HttpErrorContext): string {
  const statusText = context.statusText?.trim();
  return statusText ? `HTTP ${context.status} ${statusText}` : `HTTP ${context.status}`;
}

function readString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}
