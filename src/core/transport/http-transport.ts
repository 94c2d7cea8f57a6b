import {
  ACCEPT_LANGUAGE_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  IDENTITY_HEADER,
  LAST_EVENT_ID_HEADER,
  PROTOCOL_HEADER,
  PROTOCOL_MAJOR,
  REQUEST_ID_HEADER,
} from '../protocol.ts';
import { agentErrorFromResponse, agentFailure, isAgentError, isRetryableStatus } from './agent-error.ts';
import type { AgentError } from './agent-error.ts';
import { computeBackoffDelay } from './backoff.ts';
import { sleep } from '../clock.ts';
import { createSystemClock } from '../clock.ts';
import type { Clock } from '../clock.ts';
import { linkSignals } from './link-signals.ts';
import { pickDefined } from '../pick-defined.ts';

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /** The base the protocol lives under, e.g. `'/api/agent'` or `'http://127.0.0.1:4176/api/agent'`. */
  endpoint: string;
  /** Default `globalThis.fetch`, looked up at call time; like every real fetch it must honour `init.signal` (timeouts and aborts rely on it). */
  fetch?: typeof fetch;
  /** Default the system clock; used for timeouts, backoff sleeps and `Retry-After` dates. */
  clock?: Clock;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Returns the `idn_…` identity to send as `X-Agent-Identity`, or null before bootstrap. */
  getIdentity?: () => string | null;
  /** Per-attempt timeout in ms when a call gives none (default 30 000; `0` disables). */
  defaultTimeoutMs?: number;
  /** Fetch credentials mode (default `'same-origin'`: the product's cookie session). */
  credentials?: RequestInit['credentials'];
  /**
   * Called before every attempt (requests and streams) for the product's own headers, e.g.
   * `{ authorization: 'Bearer …' }` from a token that may have been refreshed. The protocol's
   * headers win over a header of the same name; a throw fails the attempt as `NETWORK_ERROR`.
   */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Sent as `Accept-Language` on every request, so the server's text follows the widget's locale. */
  locale?: string;
  /** Backoff ceilings in ms (defaults 500 and 30 000). */
  backoff?: { baseMs?: number; capMs?: number };
  /** A `Retry-After` longer than this ends the retries with the error instead (default 60 000). */
  maxRetryAfterMs?: number;
}

/** One JSON call. */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to `{endpoint}/v1`, starting with `/` (may carry a query string). */
  path: string;
  /**
   * Already-serialized JSON, sent byte-identical on every attempt; or a file's bytes (a `Blob`),
   * which `fetch` sends with the blob's own `type` as `Content-Type` (an upload, docs/protocol.md §5.8).
   */
  body?: string | Blob;
  /** Sent as `Idempotency-Key` in the sf-string form (`"…"`), identical on every attempt. */
  idempotencyKey?: string;
  /** More request headers (e.g. `X-Tool-Grant`); the protocol's own headers win. */
  headers?: Record<string, string>;
  /** The caller's cancel: aborting rejects with `ABORTED` and stops all retries. */
  signal?: AbortSignal;
  /** Per-attempt timeout in ms (default the transport's; `0` disables). */
  timeoutMs?: number;
  /** Total attempts including the first (default 1: never retry); only retryable failures ({@link isRetryableError}) are retried. */
  attempts?: number;
}

/** A successful (2xx) answer. */
export interface TransportResponse<T> {
  status: number;
  /** The parsed JSON body; null for an empty body (e.g. `204`). */
  body: T | null;
  /** `X-Request-Id` of the response. */
  requestId: string | null;
}

/** The SSE GET of a run's events. */
export interface OpenStreamRequest {
  /** Relative to `{endpoint}/v1`, e.g. `/runs/run_1/events?after=4`. */
  path: string;
  /** Sent as `Last-Event-ID` (the server prefers it over `?after=`). */
  lastEventId?: string;
  /** Owned by the caller: aborting it closes the stream (and is the only way to, before it ends). */
  signal: AbortSignal;
  /** Timeout for the response headers only, in ms (default the transport's; `0` disables). */
  timeoutMs?: number;
}

/** JSON requests and the SSE GET of the agent protocol, over an injected fetch. */
export interface HttpTransport {
  /**
   * Sends one request, retrying up to `attempts`; resolves with any 2xx and rejects with an
   * `AgentError` otherwise: the problem body's code for HTTP errors, `NETWORK_ERROR`, `TIMEOUT`,
   * `ABORTED`, or `INVALID_RESPONSE` for a 2xx body that is not JSON. A retry waits the
   * full-jitter backoff, and at least the error's `retryAfterMs`.
   */
  request<T>(request: TransportRequest): Promise<TransportResponse<T>>;
  /**
   * Opens the event stream, never retrying (the resume loop owns reconnection). Resolves with
   * the raw `Response` for `200` (an event stream) and `204`; rejects with an `AgentError` for
   * other statuses (e.g. `410 CURSOR_EXPIRED`), a 2xx that is not `text/event-stream`
   * (`INVALID_RESPONSE`), `NETWORK_ERROR`, `TIMEOUT` (no headers in time) or `ABORTED`.
   */
  openStream(request: OpenStreamRequest): Promise<Response>;
}

/** Default per-attempt timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default largest `Retry-After` the transport waits out. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * Tells whether a failure may be retried with the same key and body (docs/protocol.md §10): network
 * errors, timeouts, 5xx, `409 IDEMPOTENCY_KEY_IN_USE`, and a 429 only when the server said so
 * (`retryable: true` or `Retry-After`; so `429 INPUT_LIMIT` is definitive). Everything else is definitive.
 */
export function isRetryableError(error: AgentError): boolean {
  if (error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT') return true;
  if (error.status === 429) return error.retryable;
  return error.status !== null && isRetryableStatus(error.status, error.code);
}

/** Creates the transport; it holds no connection or state between calls. */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const endpoint = `${options.endpoint.replace(/\/+$/, '')}/v${PROTOCOL_MAJOR}`;
  const clock = options.clock ?? createSystemClock();
  const credentials = options.credentials ?? 'same-origin';
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;

  /**
   * Makes one attempt under its timeout (linked to the caller's signal): sends the protocol headers
   * plus the call's own (undefined ones left out), turns a non-2xx answer into its `AgentError`, then
   * lets `read` take the response. Every failure comes out as an `AgentError`.
   */
  async function fetchOnce<R>(call: AttemptCall, read: (response: Response) => Promise<R>): Promise<R> {
    const { signal: callerSignal } = call;
    if (callerSignal?.aborted) throw agentFailure('ABORTED', { cause: callerSignal.reason });
    const timeoutMs = call.timeoutMs ?? defaultTimeoutMs;
    const timeoutController = new AbortController();
    const timer =
      timeoutMs > 0 && Number.isFinite(timeoutMs)
        ? clock.setTimeout(() => timeoutController.abort(), timeoutMs)
        : undefined;
    const linked = linkSignals([callerSignal, timeoutController.signal]);
    let isSettled = false;
    try {
      const productHeaders = await options.headers?.();
      const response = await (options.fetch ?? globalThis.fetch)(endpoint + call.path, {
        method: call.method ?? 'GET',
        headers: omitUndefinedHeaders({
          ...productHeaders,
          [ACCEPT_LANGUAGE_HEADER]: options.locale,
          ...call.headers,
          [PROTOCOL_HEADER]: String(PROTOCOL_MAJOR),
          [IDENTITY_HEADER]: options.getIdentity?.() ?? undefined,
        }),
        body: call.body,
        credentials,
        signal: linked.signal,
      });
      if (!response.ok) throw await agentErrorFromResponse(response, { nowMs: clock.now() });
      const result = await read(response);
      isSettled = true;
      return result;
    } catch (error) {
      if (callerSignal?.aborted) throw agentFailure('ABORTED', { cause: callerSignal.reason });
      if (isAgentError(error)) throw error;
      if (timeoutController.signal.aborted) throw agentFailure('TIMEOUT', { cause: error });
      throw agentFailure('NETWORK_ERROR', { cause: error });
    } finally {
      if (timer !== undefined) clock.clearTimeout(timer);
      // A stream's body keeps using the linked signal, so the caller's abort must still reach it.
      if (!(call.keepLinked && isSettled)) linked.dispose();
    }
  }

  return {
    async request<T>(request: TransportRequest): Promise<TransportResponse<T>> {
      const headers = {
        ...request.headers,
        accept: 'application/json',
        'content-type': typeof request.body === 'string' ? 'application/json' : undefined,
        [IDEMPOTENCY_KEY_HEADER]: request.idempotencyKey === undefined ? undefined : `"${request.idempotencyKey}"`,
      };
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await fetchOnce({ ...request, headers }, async (response) => {
            const requestId = response.headers.get(REQUEST_ID_HEADER);
            const text = await response.text();
            return { status: response.status, body: parseJsonBody<T>(text, response.status, requestId), requestId };
          });
        } catch (caught) {
          const error = caught as AgentError;
          const retryAfterMs = error.retryAfterMs ?? 0;
          if (
            request.signal?.aborted ||
            attempt >= (request.attempts ?? 1) ||
            !isRetryableError(error) ||
            retryAfterMs > maxRetryAfterMs
          )
            throw error;
          const jitterMs = computeBackoffDelay(attempt - 1, { ...options.backoff, random: options.random });
          await sleep(Math.max(jitterMs, retryAfterMs), { signal: request.signal, clock }).catch((reason: unknown) => {
            throw agentFailure('ABORTED', { cause: reason });
          });
        }
      }
    },

    openStream(request: OpenStreamRequest): Promise<Response> {
      const headers = { accept: 'text/event-stream', [LAST_EVENT_ID_HEADER]: request.lastEventId };
      return fetchOnce({ ...request, headers, keepLinked: true }, async (response) => {
        if (response.status !== 204 && !/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) {
          await response.body?.cancel().catch(() => undefined);
          throw agentFailure('INVALID_RESPONSE', {
            status: response.status,
            requestId: response.headers.get(REQUEST_ID_HEADER),
          });
        }
        return response;
      });
    },
  };
}

/** One attempt of {@link HttpTransport.request} or {@link HttpTransport.openStream}. */
interface AttemptCall {
  path: string;
  method?: string;
  body?: string | Blob;
  signal?: AbortSignal;
  timeoutMs?: number;
  headers: Record<string, string | undefined>;
  /** Leaves the linked signal attached after success (a stream's body still needs the caller's abort). */
  keepLinked?: boolean;
}

/** `headers` without the names whose value is undefined: what `fetch` is given. */
function omitUndefinedHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  // What pickDefined leaves are exactly the defined, so string, values.
  return pickDefined(headers) as Record<string, string>;
}

function parseJsonBody<T>(text: string, status: number, requestId: string | null): T | null {
  if (text === '') return null;
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw agentFailure('INVALID_RESPONSE', { status, requestId, cause });
  }
}
