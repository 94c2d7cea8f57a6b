import type { AddressInfo } from 'node:net';
import type { EventEnvelope } from '../../core/protocol.ts';
import { createSseParser } from '../../core/sse/parse-sse-stream.ts';
import type { AgentHandler, AgentHandlerOptions } from '../create-agent-handler.ts';
import { createAgentHandler } from '../create-agent-handler.ts';
import type { AgentHttpServerOptions } from '../http/create-agent-http-server.ts';
import { createAgentHttpServer } from '../http/create-agent-http-server.ts';

/** A running handler on a loopback port with request helpers for one test file. */
export interface TestServer {
  baseUrl: string;
  port: number;
  handler: AgentHandler;
  /** The identity binding `user` gets from bootstrap. */
  identityOf(user: string): Promise<string>;
  /** `fetch` against `{base}/v1{path}` as `user` (`x-test-user`), with the protocol headers. */
  request(
    path: string,
    init?: {
      user?: string | null;
      method?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    },
  ): Promise<Response>;
  /** `POST /runs` with a fresh key for `user`; returns the parsed 201 body. */
  createRun(
    user: string,
    text?: string,
    extra?: Record<string, unknown>,
  ): Promise<{ runId: string; sessionId: string; [key: string]: unknown }>;
  close(): Promise<void>;
}

let keyCounter = 0;

/** A valid, unique idempotency key. */
export function freshKey(): string {
  keyCounter += 1;
  return `key-${process.pid}-${Date.now().toString(36)}-${keyCounter.toString(36)}-abcdef`;
}

/** Options of {@link startTestServer}: the handler's, with `authenticate` optional, plus the server's. */
export type TestServerOptions = Omit<AgentHandlerOptions, 'authenticate'> &
  Partial<Pick<AgentHandlerOptions, 'authenticate'>> & { http?: AgentHttpServerOptions };

/**
 * Starts `createAgentHandler` on 127.0.0.1:0 in `createAgentHttpServer`. Tests authenticate with
 * the `x-test-user` header (the product's session in real use); no header → 401.
 */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const { http, ...handlerOptions } = options;
  const handler = createAgentHandler({
    authenticate: (req) => {
      const user = req.headers['x-test-user'];
      return typeof user === 'string' ? { id: user, displayName: user } : null;
    },
    onError: () => {},
    logLevel: 'silent',
    ...handlerOptions,
  });
  const server = createAgentHttpServer((req, res) => handler(req, res), http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const identities = new Map<string, string>();

  const identityOf = async (user: string): Promise<string> => {
    const known = identities.get(user);
    if (known !== undefined) return known;
    const response = await fetch(`${baseUrl}/api/agent/v1/bootstrap`, { headers: { 'x-test-user': user } });
    const body = (await response.json()) as { identity?: { identityId: string } };
    // A refused bootstrap (401/403) has no identity; later calls then fail on their own checks.
    const identityId = body.identity?.identityId ?? 'idn_none';
    identities.set(user, identityId);
    return identityId;
  };

  const request: TestServer['request'] = async (path, init = {}) => {
    const user = init.user === undefined ? 'alice' : init.user;
    const headers: Record<string, string> = { 'agent-protocol': '1' };
    if (user !== null) {
      headers['x-test-user'] = user;
      headers['x-agent-identity'] = await identityOf(user);
    }
    const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${baseUrl}/api/agent/v1${path}`, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { ...headers, ...init.headers },
      ...(body === undefined ? {} : { body }),
    });
  };

  return {
    baseUrl,
    port,
    handler,
    identityOf,
    request,
    async createRun(user, text = 'Hello', extra = {}) {
      const response = await request('/runs', {
        user,
        body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] }, ...extra },
        headers: { 'idempotency-key': freshKey() },
      });
      if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as { runId: string; sessionId: string };
    },
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The parsed body of an SSE response read to its end: frames, comments and the raw text. */
export interface ReadSse {
  events: EventEnvelope[];
  ids: string[];
  comments: string[];
  text: string;
}

/** Reads an SSE response until the server ends it (or `stopWhen` says so, then aborts). */
export async function readSse(response: Response, stopWhen?: (read: ReadSse) => boolean): Promise<ReadSse> {
  const read: ReadSse = { events: [], ids: [], comments: [], text: '' };
  const parser = createSseParser({
    onFrame: (frame) => {
      read.events.push(JSON.parse(frame.data) as EventEnvelope);
      read.ids.push(frame.id ?? '');
    },
    onComment: (text) => read.comments.push(text),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read.text += decoder.decode(value, { stream: true });
    parser.push(value);
    if (stopWhen?.(read) === true) {
      await reader.cancel();
      break;
    }
  }
  return read;
}
