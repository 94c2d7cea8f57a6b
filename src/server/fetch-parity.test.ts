import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentServerOptions } from './agent-server-options.ts';
import { createAgentFetchHandler } from './create-agent-fetch-handler.ts';
import { createAgentHandler } from './create-agent-handler.ts';
import { createAgentHttpServer } from './http/create-agent-http-server.ts';
import { createScriptedTestEngine } from './test-support/manual-engine.ts';

/** One way to reach a handler: `send` takes a path under the server's root and a fetch init. */
interface Transport {
  send(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

const ORIGIN = 'https://shop.example';

/** The same options for both handlers: a fixed identity binding, a low run rate, one CORS origin (`nobody` is signed out). */
function sharedOptions(): AgentServerOptions {
  return {
    engine: createScriptedTestEngine(),
    identityFor: (subject) => `idn_${subject.id}`,
    limits: { runsPerMinute: 3 },
    cors: { origins: [ORIGIN] },
    onError: () => undefined,
    logLevel: 'silent',
  };
}

/** The fetch core, called directly with `new Request(...)` (no server, no socket). */
function fetchCore(): Transport {
  const handler = createAgentFetchHandler({
    ...sharedOptions(),
    authenticate: (request) => {
      const user = request.headers.get('x-test-user');
      return user === null || user === 'nobody' ? null : { id: user, displayName: user };
    },
  });
  return {
    send: (path, init) => handler(new Request(`http://127.0.0.1${path}`, init)),
    close: () => handler.close(),
  };
}

/** The Node adapter in `createAgentHttpServer` on a loopback port, reached with `fetch`. */
async function nodeAdapter(): Promise<Transport> {
  const handler = createAgentHandler({
    ...sharedOptions(),
    authenticate: (req) => {
      const user = req.headers['x-test-user'];
      return typeof user === 'string' && user !== 'nobody' ? { id: user, displayName: user } : null;
    },
  });
  const server = createAgentHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    send: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The response headers a client or a browser acts on. */
const HEADERS_THAT_MATTER = [
  'content-type',
  'content-length',
  'cache-control',
  'x-content-type-options',
  'x-request-id',
  'retry-after',
  'location',
  'allow',
  'idempotent-replayed',
  'x-run-last-seq',
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
];

/** What one answer says, with what differs by run (ids, times) replaced by placeholders. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Ids (ULIDs), ISO and epoch-ms times and the exact ms of a `retryAfterMs` vary from run to run. */
function normalize(text: string): string {
  return text
    .replace(/"retryAfterMs":\d+/g, '"retryAfterMs":<ms>')
    .replace(/[0-9A-HJKMNP-TV-Z]{26}/g, '<ulid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<iso>')
    .replace(/\b1\d{12}\b/g, '<ms>');
}

async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const name of HEADERS_THAT_MATTER) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = normalize(value);
  }
  return { status: response.status, headers, body: normalize(await response.text()) };
}

const json = (body: unknown): string => JSON.stringify(body);
const runBody = json({ agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text: 'Hello' }] } });

/**
 * A representative conversation with the protocol, as a list of answers: bootstrap, an idempotent
 * create and its replay, the event stream and its resume by `Last-Event-ID`, a malformed body, a
 * missing identity header, an unknown path, a rate limit, a CORS preflight and a cross-origin read,
 * and the AG-UI endpoint's stream.
 */
async function converse(transport: Transport): Promise<Record<string, Answer>> {
  const answers: Record<string, Answer> = {};
  let requestNumber = 0;
  const send = async (name: string, path: string, init: RequestInit = {}): Promise<Response> => {
    requestNumber += 1;
    const headers = new Headers(init.headers);
    headers.set('x-request-id', `req_parity.${requestNumber}`);
    if (!headers.has('x-test-user')) headers.set('x-test-user', 'alice');
    const response = await transport.send(path, { ...init, headers });
    answers[name] = await answerOf(response.clone());
    return response;
  };
  const write = { 'content-type': 'application/json', 'x-agent-identity': 'idn_alice', 'agent-protocol': '1' };

  await send('bootstrap', '/api/agent/v1/bootstrap');
  const created = await send('create', '/api/agent/v1/runs', {
    method: 'POST',
    headers: { ...write, 'idempotency-key': 'key-parity-0000000001' },
    body: runBody,
  });
  const { runId } = (await created.json()) as { runId: string };
  await send('create replayed', '/api/agent/v1/runs', {
    method: 'POST',
    headers: { ...write, 'idempotency-key': 'key-parity-0000000001' },
    body: runBody,
  });
  await send('events', `/api/agent/v1/runs/${runId}/events`);
  await send('events resumed', `/api/agent/v1/runs/${runId}/events`, { headers: { 'last-event-id': '3' } });
  await send('events at the end', `/api/agent/v1/runs/${runId}/events`, { headers: { 'last-event-id': '9' } });
  await send('malformed body', '/api/agent/v1/runs', {
    method: 'POST',
    headers: { ...write, 'idempotency-key': 'key-parity-0000000002' },
    body: '{"agentVersionId":',
  });
  await send('no identity header', '/api/agent/v1/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'key-parity-0000000003' },
    body: runBody,
  });
  await send('unknown path', '/api/agent/v1/nothing-here');
  await send('signed out', '/api/agent/v1/sessions', { headers: { 'x-test-user': 'nobody' } });
  await send('second create', '/api/agent/v1/runs', {
    method: 'POST',
    headers: { ...write, 'idempotency-key': 'key-parity-0000000004' },
    body: runBody,
  });
  await send('rate limited', '/api/agent/v1/runs', {
    method: 'POST',
    headers: { ...write, 'idempotency-key': 'key-parity-0000000005' },
    body: runBody,
  });
  await send('preflight', '/api/agent/v1/runs', {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
  });
  await send('preflight from another origin', '/api/agent/v1/runs', {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  await send('cross-origin read', '/api/agent/v1/sessions', { headers: { origin: ORIGIN } });
  await send('ag-ui', '/api/agent/ag-ui', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-test-user': 'bob' },
    body: json({
      threadId: 'thread-parity',
      runId: 'agui-run-1',
      messages: [{ id: 'm-1', role: 'user', content: 'Hello' }],
      tools: [],
      context: [],
    }),
  });
  return answers;
}

const open: Transport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
});

describe('the fetch core and the Node adapter answer alike', () => {
  it('the same status, headers that matter and body for a representative conversation', async () => {
    const core = fetchCore();
    const node = await nodeAdapter();
    open.push(core, node);
    const fromCore = await converse(core);
    const fromNode = await converse(node);
    expect(Object.keys(fromCore)).toHaveLength(16);
    for (const name of Object.keys(fromCore)) expect({ name, ...fromNode[name] }).toEqual({ name, ...fromCore[name] });
    // The conversation went where it was meant to (so the comparison is not of two identical failures).
    const statuses = Object.fromEntries(Object.entries(fromCore).map(([name, answer]) => [name, answer.status]));
    expect(statuses).toEqual({
      bootstrap: 200,
      create: 201,
      'create replayed': 201,
      events: 200,
      'events resumed': 200,
      'events at the end': 204,
      'malformed body': 422,
      'no identity header': 400,
      'unknown path': 404,
      'signed out': 401,
      'second create': 201,
      'rate limited': 429,
      preflight: 204,
      'preflight from another origin': 403,
      'cross-origin read': 200,
      'ag-ui': 200,
    });
    expect(fromCore['create replayed']?.headers['idempotent-replayed']).toBe('true');
    expect(fromCore['rate limited']?.headers['retry-after']).toMatch(/^\d+$/);
    expect(fromCore['events']?.body).toContain('"type":"RUN_FINISHED"');
    expect(fromCore['events resumed']?.body).not.toContain('id: 3\n');
    expect(fromCore['ag-ui']?.body).toContain('"type":"RUN_FINISHED"');
  });
});
