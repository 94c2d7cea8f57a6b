import type { BrowserToolDeclaration, EventEnvelope, ToolReceiptRequest } from '../../../core/protocol.ts';
import type { EngineServer, FollowedRun } from '../../agent-loop/test-support/start-engine-server.ts';

/** The two browser tools of the demo page, as a page declares them. */
export const PAGE_TOOLS: BrowserToolDeclaration[] = [
  {
    name: 'page.read_selection',
    description: 'Reads the text the user selected on the page.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    policy: 'allow',
  },
  {
    name: 'cart.add',
    title: 'Add to cart',
    description: "Adds an item to the user's cart.",
    parameters: {
      type: 'object',
      properties: { sku: { type: 'string', minLength: 1 }, quantity: { type: 'integer', minimum: 1 } },
      required: ['sku', 'quantity'],
      additionalProperties: false,
    },
  },
];

/** A JSON answer: status and parsed body. */
export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function toAnswer(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    headers: response.headers,
  };
}

/** Executor requests of one user against a test server. */
export interface ExecutorRequests {
  connect(executorId: string, tools?: string[]): Promise<JsonAnswer>;
  claim(runId: string, toolCallId: string, executorId: string): Promise<JsonAnswer>;
  receipt(
    runId: string,
    toolCallId: string,
    grant: string,
    receipt: Omit<ToolReceiptRequest, 'executorId'> & { executorId?: string },
  ): Promise<JsonAnswer>;
  report(executorId: string, grant: string, body: Record<string, unknown>): Promise<JsonAnswer>;
  post(path: string, body?: unknown): Promise<JsonAnswer>;
  get(path: string): Promise<JsonAnswer>;
}

/** Requests as `user` for executor `executorId` (the receipts' default executor). */
export function executorRequests(server: EngineServer, user = 'alice', executorId = 'exe_tab1'): ExecutorRequests {
  const post = async (path: string, body: unknown = {}, headers: Record<string, string> = {}) =>
    toAnswer(await server.request(path, { user, body, headers }));
  return {
    connect: (id, tools = PAGE_TOOLS.map((tool) => tool.name)) => post(`/executors/${id}/connect`, { tools }),
    claim: (runId, toolCallId, id) => post(`/runs/${runId}/tool-calls/${toolCallId}/claim`, { executorId: id }),
    receipt: (runId, toolCallId, grant, receipt) =>
      post(`/runs/${runId}/tool-calls/${toolCallId}/receipts`, { executorId, ...receipt }, { 'x-tool-grant': grant }),
    report: (id, grant, body) => post(`/executors/${id}/report`, body, { 'x-tool-grant': grant }),
    post: (path, body) => post(path, body),
    get: async (path) => toAnswer(await server.request(path, { user })),
  };
}

/** A run started with the page's browser tools, followed until its browser call is dispatched. */
export interface DispatchedRun {
  runId: string;
  toolCallId: string;
  run: FollowedRun;
}

/** True once the log has `type`. */
export const hasEvent =
  (type: string) =>
  (events: readonly EventEnvelope[]): boolean =>
    events.some((event) => event.type === type);

/** Creates `/clienttool <command>` as `user` with the page tools declared and waits for `TOOL_CALL_DISPATCHED`. */
export async function startBrowserCall(server: EngineServer, command: string, user = 'alice'): Promise<DispatchedRun> {
  const { runId } = await server.createRun(user, `/clienttool ${command}`, { browserTools: PAGE_TOOLS });
  const run = await server.follow(runId, user);
  const events = await run.until(hasEvent('TOOL_CALL_DISPATCHED'));
  const dispatched = events.find((event) => event.type === 'TOOL_CALL_DISPATCHED');
  return { runId, toolCallId: (dispatched?.data as { toolCallId: string }).toolCallId, run };
}
