import type { ProblemDetails } from '../../core/protocol.ts';
import { RETRY_AFTER_HEADER } from '../../core/protocol.ts';
import type { ProblemError } from './problem-error.ts';

const TITLES: Record<string, string> = {
  PROTOCOL_VERSION_UNSUPPORTED: 'Unsupported protocol version',
  UNAUTHENTICATED: 'Not signed in',
  IDENTITY_CHANGED: 'The signed-in user changed',
  FORBIDDEN: 'Not allowed to use this agent',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  VALIDATION_FAILED: 'The request is not valid',
  PAYLOAD_TOO_LARGE: 'The request body is too large',
  REQUEST_TIMEOUT: 'The request took too long to arrive',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be application/json',
  ATTACHMENT_TYPE_UNSUPPORTED: 'This kind of file is not accepted',
  ATTACHMENT_QUOTA_EXCEEDED: 'No room is left for more files',
  RATE_LIMITED: 'Too many requests',
  AGENT_UNAVAILABLE: 'The agent is unavailable',
  STORAGE_FULL: 'The server has no room to store this right now',
  INTERNAL: 'Something went wrong on the server',
  IDEMPOTENCY_KEY_REQUIRED: 'An Idempotency-Key header is required',
  IDEMPOTENCY_KEY_INVALID: 'The Idempotency-Key is not valid',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency key already used with a different request',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this idempotency key is still in progress',
  RUN_ALREADY_ACTIVE: 'The session already has an active run',
  RUN_NOT_ACTIVE: 'The run has ended',
  RUN_NOT_ACCEPTING_INPUT: 'The run is waiting for an answer and accepts no input',
  RUN_NOT_RETRYABLE: 'That run can no longer be answered again',
  AGENT_VERSION_MISMATCH: 'The agent version does not match the session',
  MODEL_UNAVAILABLE: 'The model is not available',
  UNSUPPORTED_CONTENT: 'This kind of content is not supported',
  INPUT_LIMIT: 'Too many inputs for this run',
  CURSOR_INVALID: 'The cursor is not valid',
  CURSOR_EXPIRED: 'The cursor is no longer available',
  INTERRUPT_NOT_FOUND: 'No such interrupt',
  INTERRUPT_ALREADY_RESOLVED: 'The interrupt was already resolved',
  INTERRUPT_EXPIRED: 'The interrupt has expired',
  ARGS_DIGEST_MISMATCH: 'The arguments changed since they were shown',
  EDITED_ARGS_INVALID: 'The edited arguments are not valid',
};

const RETRYABLE = new Set([
  'IDEMPOTENCY_KEY_IN_USE',
  'RATE_LIMITED',
  'INTERNAL',
  'AGENT_UNAVAILABLE',
  'STORAGE_FULL',
  'REQUEST_TIMEOUT',
]);

/**
 * Headers on every API answer (JSON, problems, `204`): browsers must not sniff a type, and nothing
 * between the server and the browser may keep a copy (answers are per user).
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/** The same for event streams, which proxies must also pass through unchanged (docs/protocol.md §15). */
export const STREAM_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store, no-transform',
};

const encoder = new TextEncoder();

/** A JSON answer with {@link API_RESPONSE_HEADERS} and its `Content-Length` (every JSON answer of the protocol). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const bytes = encoder.encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...API_RESPONSE_HEADERS,
      'Content-Length': String(bytes.byteLength),
      ...headers,
    },
  });
}

/** An answer without a body (`204`) with {@link API_RESPONSE_HEADERS}. */
export function emptyResponse(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { ...API_RESPONSE_HEADERS, ...headers } });
}

/** Builds the RFC 9457 body of a problem; `type` is `<typeBase><kebab-code>`. */
export function buildProblem(error: ProblemError, requestId: string, typeBase: string): ProblemDetails {
  const { code, detail, runId, details, extra, retryAfterMs } = error.init;
  return {
    type: `${typeBase}${code.toLowerCase().replaceAll('_', '-')}`,
    title: TITLES[code] ?? code,
    status: error.status,
    code,
    ...(detail === undefined ? {} : { detail }),
    requestId,
    retryable: RETRYABLE.has(code),
    retryAfterMs: retryAfterMs ?? null,
    runId: runId ?? null,
    details: details ?? {},
    ...extra,
  };
}

/** The `application/problem+json` answer of `error`, with `Retry-After` (seconds) when the problem has one. */
export function problemResponse(options: { error: ProblemError; requestId: string; typeBase: string }): Response {
  const { error, requestId, typeBase } = options;
  const bytes = encoder.encode(JSON.stringify(buildProblem(error, requestId, typeBase)));
  const headers: Record<string, string> = {
    'Content-Type': 'application/problem+json; charset=utf-8',
    ...API_RESPONSE_HEADERS,
    'Content-Length': String(bytes.byteLength),
    ...error.init.headers,
  };
  if (error.init.retryAfterMs !== undefined)
    headers[RETRY_AFTER_HEADER] = String(Math.ceil(error.init.retryAfterMs / 1000));
  return new Response(bytes, { status: error.status, headers });
}
