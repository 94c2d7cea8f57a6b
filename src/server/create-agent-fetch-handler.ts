import type { AgentHandlerMembers, AgentServerOptions, Authenticate } from './agent-server-options.ts';
import { createAgentCore, withHandlerMembers } from './agent-core.ts';

/** Options of {@link createAgentFetchHandler}: the shared ones, with hooks on the Web `Request`. */
export interface AgentFetchHandlerOptions extends AgentServerOptions {
  /** Resolves the product's user from its own cookie/session on the Web `Request`; `null` → `401 UNAUTHENTICATED`. */
  authenticate: Authenticate<Request>;
  /**
   * The address the request's connection came from, which the per-network-client limits count
   * by (docs/server.md, "Overload"); `trustProxy` then applies to it as to a socket's address. A
   * fetch handler sees no socket, so the host says it: here from the request (e.g. a header its
   * own platform sets), or per call as the handler's second argument. Default: unknown, and then each request is its own client:
   * only the total limits (`maxConnections`, `maxStreams`, `maxLiveRuns`) apply, and the first
   * request without a second argument logs one `clients_unnamed` warning.
   */
  clientAddress?: (request: Request) => string | undefined;
}

/** What the host knows of the connection a request came on (a fetch handler sees no socket). */
export interface AgentConnection {
  /** The address the connection came from (e.g. Hono's `getConnInfo(c).remote.address`). */
  remoteAddress?: string | undefined;
}

/**
 * A Web-standard `(request) => Promise<Response>` handler serving the protocol, plus its store and
 * a `close`. The optional `connection` names the client's address; it beats `clientAddress`.
 */
export type AgentFetchHandler = ((request: Request, connection?: AgentConnection) => Promise<Response>) &
  AgentHandlerMembers;

/**
 * Creates the protocol v1 handler on Web `Request` → `Response` (docs/server.md): mount it in a
 * Next.js route handler, Hono, Bun, Deno, or anything that speaks fetch. It serves `{basePath}/*`
 * (and `/metrics`, `/healthz`, `/readyz` when on); any other path is `404`. Event streams are
 * `ReadableStream`s with backpressure that end when `request.signal` aborts. It has no socket, so
 * it cannot cut slow headers or a client that trickles its body before it sees it: the server in
 * front must (the Node adapter, `createAgentHandler` in `createAgentHttpServer`, does).
 */
export function createAgentFetchHandler(options: AgentFetchHandlerOptions): AgentFetchHandler {
  const core = createAgentCore(options);
  const clientAddress = options.clientAddress;
  // Without an address to start from, `trustProxy` names no one either: only the totals would bind.
  let isUnnamedWarned = clientAddress !== undefined;
  const handler = (request: Request, connection?: AgentConnection): Promise<Response> => {
    if (!isUnnamedWarned && connection?.remoteAddress === undefined) {
      isUnnamedWarned = true;
      core.log.write('warn', 'clients_unnamed', { detail: UNNAMED_CLIENTS });
    }
    return core
      .serve(request, {
        remoteAddress:
          connection?.remoteAddress ?? (clientAddress === undefined ? undefined : safely(() => clientAddress(request))),
        admit: (client) => core.admission.admit(client),
      })
      .then(withoutNetworkError);
  };
  return withHandlerMembers(handler, core);
}

const UNNAMED_CLIENTS =
  'createAgentFetchHandler cannot tell clients apart, so its per-client limits never bind: pass the ' +
  "`clientAddress` option (e.g. the address your platform puts in a header) or the client's address " +
  'as the second argument, `{remoteAddress}`; `trustProxy` reads the forwarded chain from that address.';

/**
 * A client that left gets `Response.error()` from the core, which a host cannot write (Hono's
 * Node server logs `Invalid status code: 0`): here it is a bodiless `499` instead, nginx's "client
 * closed request", which nobody reads either.
 */
function withoutNetworkError(response: Response): Response {
  return response.type === 'error' ? new Response(null, { status: CLIENT_CLOSED_REQUEST }) : response;
}

const CLIENT_CLOSED_REQUEST = 499;

/** A host hook that throws names no one (the request is still served). */
function safely(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
