import { describe, expect, it } from 'vitest';
import type { ProblemDetails } from '../protocol.ts';
import {
  AgentError,
  agentErrorFromProblem,
  agentErrorFromResponse,
  agentFailure,
  isAgentError,
} from './agent-error.ts';

const NOW = Date.UTC(2026, 10, 29, 13, 40, 0);

function problemResponse(body: unknown, init: { status: number; headers?: Record<string, string> }): Response {
  return new Response(JSON.stringify(body), {
    status: init.status,
    headers: { 'content-type': 'application/problem+json', ...init.headers },
  });
}

describe('AgentError', () => {
  it('defaults every optional field and keeps message and cause out of its own enumerable fields', () => {
    const cause = new Error('socket hang up');
    const error = new AgentError({ code: 'NETWORK_ERROR', message: 'down', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AgentError');
    expect(error.cause).toBe(cause);
    expect(isAgentError(error)).toBe(true);
    expect(isAgentError(new Error('x'))).toBe(false);
    expect(error.message).toBe('down');
    expect(JSON.parse(JSON.stringify(error))).toStrictEqual({
      name: 'AgentError',
      code: 'NETWORK_ERROR',
      status: null,
      requestId: null,
      retryable: false,
      retryAfterMs: null,
      runId: null,
      details: {},
    });
  });
});

describe('agentErrorFromResponse', () => {
  it('maps an RFC 9457 problem body, preferring the X-Request-Id header', async () => {
    const problem: ProblemDetails = {
      type: 'https://docs.example.dev/agent-chat/errors/run-already-active',
      title: 'A run is already active',
      status: 409,
      code: 'RUN_ALREADY_ACTIVE',
      detail: 'Session ses_1 already has an active run.',
      requestId: 'req_body',
      retryable: false,
      retryAfterMs: null,
      runId: 'run_7',
      details: { activeRunId: 'run_7' },
    };
    const error = await agentErrorFromResponse(
      problemResponse(problem, { status: 409, headers: { 'x-request-id': 'req_header' } }),
      {
        nowMs: NOW,
      },
    );
    expect({ ...error, message: error.message }).toStrictEqual({
      name: 'AgentError',
      code: 'RUN_ALREADY_ACTIVE',
      message: 'Session ses_1 already has an active run.',
      status: 409,
      requestId: 'req_header',
      retryable: false,
      retryAfterMs: null,
      runId: 'run_7',
      details: { ...problem, activeRunId: 'run_7' },
    });
  });

  it('finds a top-level activeRunId in details when the body has no details member', () => {
    const error = agentErrorFromProblem(
      { code: 'RUN_ALREADY_ACTIVE', activeRunId: 'run_8' },
      { status: 409, requestId: null, retryAfterMs: null },
    );
    expect(error.details).toStrictEqual({ code: 'RUN_ALREADY_ACTIVE', activeRunId: 'run_8' });
  });

  it('falls back to the body requestId and takes the longer of header and body retry delays', async () => {
    const error = await agentErrorFromResponse(
      problemResponse(
        { title: 'Key in use', status: 409, code: 'IDEMPOTENCY_KEY_IN_USE', requestId: 'req_9', retryAfterMs: 2500 },
        { status: 409, headers: { 'retry-after': '1' } },
      ),
      { nowMs: NOW },
    );
    expect([error.code, error.message, error.requestId, error.retryable, error.retryAfterMs]).toStrictEqual([
      'IDEMPOTENCY_KEY_IN_USE',
      'Key in use',
      'req_9',
      true,
      2500,
    ]);
  });

  it('reads an HTTP-date Retry-After against the given now', async () => {
    const error = await agentErrorFromResponse(
      problemResponse(
        { code: 'AGENT_UNAVAILABLE', status: 503 },
        { status: 503, headers: { 'retry-after': new Date(NOW + 8000).toUTCString() } },
      ),
      { nowMs: NOW },
    );
    expect([error.code, error.retryable, error.retryAfterMs]).toStrictEqual(['AGENT_UNAVAILABLE', true, 8000]);
  });

  it('makes a 429 retryable only when the server says so (retryable: true or Retry-After)', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string>, boolean, number | null]> = [
      [{ code: 'INPUT_LIMIT', status: 429, retryable: false }, {}, false, null],
      [{ code: 'RATE_LIMITED', status: 429 }, {}, false, null],
      [{ code: 'RATE_LIMITED', status: 429, retryable: true, retryAfterMs: 30_000 }, {}, true, 30_000],
      [{ code: 'RATE_LIMITED', status: 429 }, { 'retry-after': '5' }, true, 5_000],
      [{ code: 'RATE_LIMITED', status: 429, retryable: false }, { 'retry-after': '5' }, true, 5_000],
    ];
    const seen = await Promise.all(
      cases.map(async ([body, headers]) => {
        const error = await agentErrorFromResponse(problemResponse(body, { status: 429, headers }), { nowMs: NOW });
        return [error.retryable, error.retryAfterMs];
      }),
    );
    expect(seen).toStrictEqual(cases.map(([, , retryable, retryAfterMs]) => [retryable, retryAfterMs]));
  });

  it('keeps the members of a plain JSON error body in details', async () => {
    const response = new Response(JSON.stringify({ error: 'Too many requests', limit: 10 }), {
      status: 429,
      statusText: 'Too Many Requests',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const error = await agentErrorFromResponse(response, { nowMs: NOW });
    expect({ ...error, message: error.message }).toStrictEqual({
      name: 'AgentError',
      code: 'RATE_LIMITED',
      message: 'Too many requests',
      status: 429,
      requestId: null,
      retryable: false,
      retryAfterMs: null,
      runId: null,
      details: { error: 'Too many requests', limit: 10 },
    });
  });

  it('maps a non-JSON body by status, never echoing the body', async () => {
    const response = new Response('<html><body>502 Bad Gateway</body></html>', {
      status: 502,
      statusText: 'Bad Gateway',
      headers: { 'content-type': 'text/html', 'x-request-id': 'req_edge' },
    });
    const error = await agentErrorFromResponse(response, { nowMs: NOW });
    expect({ ...error, message: error.message }).toStrictEqual({
      name: 'AgentError',
      code: 'HTTP_ERROR',
      message: 'HTTP 502',
      status: 502,
      requestId: 'req_edge',
      retryable: true,
      retryAfterMs: null,
      runId: null,
      details: {},
    });
  });

  it('treats a JSON content type with an unparsable body as a non-JSON error', async () => {
    const response = new Response('{oops', { status: 404, headers: { 'content-type': 'application/problem+json' } });
    const error = await agentErrorFromResponse(response, { nowMs: NOW });
    expect([error.code, error.message, error.retryable]).toStrictEqual(['HTTP_ERROR', 'HTTP 404', false]);
  });
});

describe('agentErrorFromProblem', () => {
  it('uses the status default for retryable when the body gives no hint', () => {
    const context = { status: 500, requestId: null, retryAfterMs: null };
    expect(agentErrorFromProblem({ code: 'INTERNAL', title: 'Internal error' }, context).retryable).toBe(true);
    expect(agentErrorFromProblem({ code: 'INTERNAL', retryable: false }, context).retryable).toBe(false);
    expect(agentErrorFromProblem({ code: 'VALIDATION_FAILED' }, { ...context, status: 422 }).retryable).toBe(false);
  });

  it('names well-known statuses and leaves the rest HTTP_ERROR', () => {
    const codes = [401, 403, 404, 405, 409, 413, 415, 429, 500, 503].map(
      (status) => agentErrorFromProblem({}, { status, requestId: null, retryAfterMs: null }).code,
    );
    expect(codes).toStrictEqual([
      'UNAUTHENTICATED',
      'FORBIDDEN',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'RATE_LIMITED',
      'HTTP_ERROR',
      'HTTP_ERROR',
    ]);
  });
});

describe('failures without a response', () => {
  it('network failure is NETWORK_ERROR and retryable', () => {
    const cause = new TypeError('fetch failed');
    const error = agentFailure('NETWORK_ERROR', { cause });
    expect([error.code, error.retryable, error.status, error.cause]).toStrictEqual([
      'NETWORK_ERROR',
      true,
      null,
      cause,
    ]);
  });

  it('timeout is TIMEOUT and retryable', () => {
    const error = agentFailure('TIMEOUT');
    expect([error.code, error.retryable, error.message, error.details]).toStrictEqual([
      'TIMEOUT',
      true,
      'The server did not answer in time.',
      {},
    ]);
  });

  it('abort is ABORTED and never retryable', () => {
    const error = agentFailure('ABORTED', { cause: 'user left' });
    expect([error.code, error.retryable, error.cause]).toStrictEqual(['ABORTED', false, 'user left']);
  });
});
