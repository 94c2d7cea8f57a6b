import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { createSystemClock } from '../../core/clock.ts';
import { createUlidIds } from '../ids/create-ulid-ids.ts';
import { ProblemError } from './problem-error.ts';
import type { ProblemInit } from './problem-error.ts';
import { API_RESPONSE_HEADERS, buildProblem } from './respond.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';

/** The socket-level limits of {@link createAgentHttpServer}, in ms. */
export interface AgentHttpServerOptions {
  /** The request line and headers must arrive within this (Node's `headersTimeout`). Default 10 000. */
  headersTimeoutMs?: number;
  /**
   * The whole request must arrive within this (Node's `requestTimeout`): the backstop for bodies
   * nobody reads, such as a GET's; the handler cuts its own bodies sooner. Default 45 000.
   */
  requestTimeoutMs?: number;
  /** How often Node checks both (its `connectionsCheckingInterval`; its default is 30 000). Default 1 000. */
  checkIntervalMs?: number;
  /** Mints the request id of a problem answered at the socket level. Default: ULIDs. */
  ids?: (prefix: string) => string;
  /** Base of each problem's `type` URI. Default `urn:agent-chat:problem:`. */
  problemTypeBase?: string;
}

/** The defaults of {@link AgentHttpServerOptions} (docs/server.md, "Slow clients"). */
export const DEFAULT_HTTP_SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 45_000,
  checkIntervalMs: 1_000,
} as const;

/**
 * Creates an `http.Server` for `listener` (the agent handler, or an app that mounts it) with the
 * settings a server facing the internet needs and Node does not default to: slow headers are cut
 * after `headersTimeoutMs`, a request still arriving after `requestTimeoutMs` is cut, and a request
 * Node cannot parse or that times out gets a `problem+json` answer (`400`, `408`, `431`) and the
 * connection is closed, never the server. Hosts that create their own server should copy these
 * settings (see docs/server.md).
 */
export function createAgentHttpServer(listener: RequestListener, options: AgentHttpServerOptions = {}): Server {
  const limits = { ...DEFAULT_HTTP_SERVER_LIMITS, ...options };
  const serverOptions: ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
  const server = createServer(serverOptions, listener);
  // The response in progress on each socket: a problem is only written where none has started.
  const responses = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => responses.set(req.socket, res));
  const ids = options.ids ?? createUlidIds(createSystemClock());
  const typeBase = options.problemTypeBase ?? 'urn:agent-chat:problem:';
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const response = responses.get(socket);
    const hasStarted = response !== undefined && response.headersSent && !response.writableFinished;
    if (error.code === 'ECONNRESET' || !socket.writable || hasStarted) {
      socket.destroy();
      return;
    }
    socket.end(formatClientErrorAnswer(error, ids('req'), typeBase));
  });
  return server;
}

/** The whole HTTP/1.1 answer to a request Node refused before any handler saw it. */
function formatClientErrorAnswer(error: NodeJS.ErrnoException, requestId: string, typeBase: string): string {
  const problem = new ProblemError(describeClientError(error.code));
  const body = JSON.stringify(buildProblem(problem, requestId, typeBase));
  const headers: Record<string, string> = {
    'Content-Type': 'application/problem+json; charset=utf-8',
    ...API_RESPONSE_HEADERS,
    'Content-Length': String(Buffer.byteLength(body)),
    [REQUEST_ID_HEADER]: requestId,
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n${head.join('')}\r\n${body}`;
}

function describeClientError(code: string | undefined): ProblemInit {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'REQUEST_TIMEOUT', detail: 'The request did not arrive in time.' };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'VALIDATION_FAILED',
      status: 431,
      detail: 'The request headers are too large.',
      details: { reason: 'headers_too_large' },
    };
  }
  return {
    code: 'VALIDATION_FAILED',
    status: 400,
    detail: 'The request is not valid HTTP/1.1.',
    details: { reason: 'malformed_request', parserCode: code ?? null },
  };
}
