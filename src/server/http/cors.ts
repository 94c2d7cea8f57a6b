import {
  ACCEPT_LANGUAGE_HEADER,
  ATTACHMENT_NAME_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  IDENTITY_HEADER,
  LAST_EVENT_ID_HEADER,
  PROTOCOL_HEADER,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  RUN_LAST_SEQ_HEADER,
  TOOL_GRANT_HEADER,
} from '../../core/protocol.ts';
import { ProblemError } from './problem-error.ts';

/** Cross-origin access to the protocol (docs/server.md, "Another origin"). */
export interface CorsOptions {
  /**
   * The page origins allowed to call the API, exactly as browsers send `Origin`
   * (`https://shop.example`, `http://127.0.0.1:8080`): scheme, host and port, no path. Never `*`.
   */
  origins: readonly string[];
  /** Lets the browser send the product's cookies (`Access-Control-Allow-Credentials: true`). Default true. */
  credentials?: boolean;
  /** Request headers the product adds besides the protocol's (e.g. `authorization` from the widget's `headers()` hook). */
  allowHeaders?: readonly string[];
  /** How long a browser may cache a preflight, in seconds. Default 600. */
  maxAgeSec?: number;
}

/** What CORS says about one request: the headers its answer carries, and the answer itself for a preflight. */
export interface CorsDecision {
  /** Added to whatever the request is answered with (`Vary: Origin` always). */
  headers: Record<string, string>;
  /** The `204` of a listed preflight; null for every other request. */
  preflight: Response | null;
}

/** Decides CORS for one request; throws `403` for a preflight from an unlisted origin. */
export type CorsHandler = (request: Request) => CorsDecision;

/** The request headers the client core and the browser tools' runner send (docs/protocol.md §3, §19.3). */
const PROTOCOL_REQUEST_HEADERS = [
  'content-type',
  PROTOCOL_HEADER,
  IDENTITY_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  LAST_EVENT_ID_HEADER,
  REQUEST_ID_HEADER,
  ACCEPT_LANGUAGE_HEADER,
  'traceparent',
  TOOL_GRANT_HEADER,
  ATTACHMENT_NAME_HEADER,
];

/** The response headers a cross-origin client must be able to read (docs/protocol.md §3). */
const EXPOSED_HEADERS = [
  REQUEST_ID_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  RETRY_AFTER_HEADER,
  'location',
  RUN_LAST_SEQ_HEADER,
];

const ORIGIN_PATTERN = /^https?:\/\/[^/?#\s]+$/;

/**
 * Creates the CORS part of the handler from an allow-list. A request whose `Origin` is listed gets
 * that origin back (never `*`), `Vary: Origin`, credentials when enabled and the exposed protocol
 * headers; a listed preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered `204`
 * with the protocol's methods and headers. A preflight from an unlisted origin is `403 FORBIDDEN`;
 * other requests from one get no CORS headers, so the browser keeps their answer from the page.
 * Throws at creation when an origin is `*` or not a bare `scheme://host[:port]`.
 */
export function createCors(options: CorsOptions): CorsHandler {
  for (const origin of options.origins) {
    if (!ORIGIN_PATTERN.test(origin)) {
      throw new TypeError(
        `createAgentHandler: cors.origins must list origins like "https://shop.example" (never "*"), got ${JSON.stringify(origin)}.`,
      );
    }
  }
  const origins = new Set(options.origins.map((origin) => origin.toLowerCase()));
  const hasCredentials = options.credentials ?? true;
  const allowHeaders = [...PROTOCOL_REQUEST_HEADERS, ...(options.allowHeaders ?? [])].join(', ');
  const maxAge = String(options.maxAgeSec ?? 600);
  return (request) => {
    const origin = request.headers.get('origin');
    const isPreflight = request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
    const headers: Record<string, string> = { Vary: 'Origin' };
    if (origin === null || !origins.has(origin.toLowerCase())) {
      if (isPreflight)
        throw new ProblemError({ code: 'FORBIDDEN', detail: 'This origin may not call the agent API.', headers });
      return { headers, preflight: null };
    }
    headers['Access-Control-Allow-Origin'] = origin;
    if (hasCredentials) headers['Access-Control-Allow-Credentials'] = 'true';
    if (!isPreflight) {
      headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS.join(', ');
      return { headers, preflight: null };
    }
    const preflight = new Response(null, {
      status: 204,
      headers: {
        ...headers,
        'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE',
        'Access-Control-Allow-Headers': allowHeaders,
        'Access-Control-Max-Age': maxAge,
      },
    });
    return { headers, preflight };
  };
}
