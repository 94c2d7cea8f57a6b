import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '../core/protocol.ts';
import type { AgentHandlerMembers, AgentServerOptions, Authenticate } from './agent-server-options.ts';
import { createAgentCore, withHandlerMembers } from './agent-core.ts';
import { parseRequestTarget } from './http/parse-request-target.ts';
import { ProblemError } from './http/problem-error.ts';
import { toWebRequest } from './node/to-web-request.ts';
import { writeNodeResponse } from './node/write-node-response.ts';

/** Options of {@link createAgentHandler}: the shared ones, with `authenticate` on the Node request. */
export interface AgentHandlerOptions extends AgentServerOptions {
  /** Resolves the product's user from its own cookie/session; `null` → `401 UNAUTHENTICATED`. */
  authenticate: Authenticate<IncomingMessage>;
}

/** A Node `(req, res, next?)` handler serving the protocol, plus its store and a `close`. */
export type AgentHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => void) &
  AgentHandlerMembers;

/**
 * Creates the Node adapter of the protocol v1 handler (docs/protocol.md): mount it in
 * `http.createServer`, Express or Fastify. The protocol itself is the fetch core's (the same as
 * `createAgentFetchHandler`'s); the adapter turns the Node request into a Web `Request` (its body
 * streamed, read only when the core reads it), writes the `Response` back honouring `drain`, aborts
 * the request's signal when the client goes, and adds what only a server with sockets can do:
 * the socket's address for the per-client limits, a connection slot held until the answer is
 * written (a pipelined answer queued behind another, or a socket that closed, holds none). Outside
 * `{basePath}` it calls `next()` (or answers `404`); a target that is not a URL at all is `400`
 * either way.
 */
export function createAgentHandler(options: AgentHandlerOptions): AgentHandler {
  const nodeRequests = new WeakMap<Request, IncomingMessage>();
  const core = createAgentCore({
    ...options,
    authenticate: (request) => options.authenticate(nodeRequests.get(request) as IncomingMessage),
  });
  const handler = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    let response: Promise<Response>;
    let release: (() => void) | null = null;
    let url: URL;
    try {
      url = parseRequestTarget(req.url);
    } catch (error) {
      void writeNodeResponse(core.answerUnreadable(error, requestOf(req)), res);
      return;
    }
    if (!core.serves(url.pathname) && next !== undefined) {
      next();
      return;
    }
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    try {
      const request = toWebRequest(req, url, gone.signal);
      nodeRequests.set(request, req);
      response = core.serve(request, {
        remoteAddress: req.socket.remoteAddress,
        admit: (client) => (release = core.admission.admitRequest(req, res, client)),
      });
    } catch {
      // What a Web Request cannot carry (a TRACE method, a header outside Latin-1).
      response = Promise.resolve(
        core.answerUnreadable(
          new ProblemError({
            code: 'VALIDATION_FAILED',
            status: 400,
            detail: 'The request cannot be served.',
            details: { reason: 'malformed_request' },
          }),
          requestOf(req),
        ),
      );
    }
    response
      .then((answer) => writeNodeResponse(answer, res))
      .catch(() => res.destroy())
      // The handler is done: a response queued behind another on its socket holds no slot.
      .finally(() => {
        if (res.writableEnded) (release as (() => void) | null)?.();
      });
  };
  return withHandlerMembers(handler, core);
}

function requestOf(req: IncomingMessage): { method: string; path: string; requestIdHeader: string | undefined } {
  return {
    method: req.method ?? 'GET',
    path: req.url?.split('?')[0] ?? '',
    requestIdHeader: singleHeader(req.headers[REQUEST_ID_HEADER]),
  };
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
