import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, RunResource } from '../../core/protocol.ts';
import { createSseParser } from '../../core/sse/parse-sse-stream.ts';
import type { AgUiTestAgent } from '../../../test/support/ag-ui-agent.ts';
import { slowAgentWords, startAgUiTestAgent } from '../../../test/support/ag-ui-agent.ts';
import { assertEventInvariants } from '../agent-loop/test-support/assert-event-invariants.ts';
import { dataOf, foldTypes } from '../agent-loop/test-support/run-engine-harness.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { resourceFromEvents, startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import { createUlidIds } from '../ids/create-ulid-ids.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { createAgUiModel } from './ag-ui-model.ts';
import { createAgUiEngine } from './create-ag-ui-engine.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real AG-UI agent (built on @ag-ui/encoder) behind our handler, with the demo tools governed by our loop. */
async function serve(agentOptions: Parameters<typeof startAgUiTestAgent>[0] = {}): Promise<{
  agent: AgUiTestAgent;
  server: EngineServer;
}> {
  const agent = await startAgUiTestAgent(agentOptions);
  const server = await startEngineServer({
    engine: { model: createAgUiModel({ url: agent.url, ids: createUlidIds() }) },
  });
  closers.push(
    () => server.close(),
    () => agent.close(),
  );
  return { agent, server };
}

async function runToEnd(server: EngineServer, text: string, extra?: Record<string, unknown>): Promise<EventEnvelope[]> {
  const { runId } = await server.createRun('alice', text, extra);
  const events = await (await server.follow(runId)).done;
  assertEventInvariants(events);
  expect(await server.resource(runId)).toEqual(resourceFromEvents(events));
  return events;
}

function assistantTexts(resource: RunResource): string[] {
  return resource.messages.filter((message) => message.role === 'assistant').map((message) => message.content);
}

describe('createAgUiModel: an AG-UI agent behind our protocol', () => {
  it('streams the agent’s text into our log and sends it the session as a RunAgentInput', async () => {
    const { agent, server } = await serve();
    const events = await runToEnd(server, 'text');
    const resource = resourceFromEvents(events);
    expect(assistantTexts(resource)).toEqual(['Hello from the AG-UI agent.']);
    expect(foldTypes(events)).toEqual([
      'RUN_STARTED',
      'RUN_STATUS_CHANGED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT*',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    const [input] = agent.inputs;
    expect(input).toEqual(
      expect.objectContaining({
        threadId: resource.sessionId,
        protocolVersion: '1.0',
        messages: [{ id: 'm0', role: 'user', content: 'text' }],
        context: [],
      }),
    );
    expect(input?.tools.map((tool) => tool.name)).toEqual([
      'orders.lookup',
      'drafts.list',
      'drafts.delete',
      'report.generate',
      'profile.propose',
    ]);
  });

  it('streams reasoning as our reasoning message', async () => {
    const { server } = await serve();
    const resource = resourceFromEvents(await runToEnd(server, 'reasoning'));
    expect(resource.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'reasoning'],
      ['reasoning', 'Thinking it over.'],
      ['assistant', 'Thought through.'],
    ]);
  });

  it('logs a tool the agent ran itself, between its two messages', async () => {
    const { server } = await serve();
    const events = await runToEnd(server, 'agent tool');
    const resource = resourceFromEvents(events);
    expect(assistantTexts(resource)).toEqual(['Let me look.', 'It is clear in Oslo.']);
    expect(resource.toolCalls).toEqual([
      expect.objectContaining({
        name: 'weather.lookup',
        args: { city: 'Oslo' },
        argsDigest: sha256Digest({ city: 'Oslo' }),
        status: 'completed',
        result: expect.objectContaining({ content: '{"sky":"clear"}' }),
      }),
    ]);
    const types = events.map((event) => event.type);
    expect(types.indexOf('TOOL_CALL_START')).toBeGreaterThan(types.indexOf('TEXT_MESSAGE_END'));
    expect(types.lastIndexOf('TEXT_MESSAGE_START')).toBeGreaterThan(types.indexOf('TOOL_CALL_RESULT'));
  });

  it('keeps the agent’s state events in our log and sends the folded state on the thread’s next run', async () => {
    const { agent, server } = await serve();
    const first = await runToEnd(server, 'state');
    expect(dataOf(first, 'STATE_SNAPSHOT')).toEqual([{ snapshot: { steps: [], count: 0 } }]);
    expect(dataOf(first, 'STATE_DELTA')).toEqual([
      {
        delta: [
          { op: 'replace', path: '/count', value: 1 },
          { op: 'add', path: '/steps/-', value: 'planned' },
        ],
      },
    ]);
    await runToEnd(server, 'text', { sessionId: first[0]?.sessionId });
    expect(agent.inputs[1]?.state).toEqual({ steps: ['planned'], count: 1 });
    expect(agent.inputs[1]?.messages).toEqual([
      { id: 'm0', role: 'user', content: 'state' },
      { id: 'm1', role: 'assistant', content: 'State updated.' },
      { id: 'm2', role: 'user', content: 'text' },
    ]);
  });

  it('ends the run with RUN_ERROR when the agent fails mid-stream, keeping its words out of the log', async () => {
    const { server } = await serve();
    const events = await runToEnd(server, 'error');
    const resource = resourceFromEvents(events);
    expect(resource.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'assistant', content: 'Partial answer', finishReason: 'error' }),
    );
    expect(events.at(-1)?.data).toEqual(
      expect.objectContaining({ code: 'MODEL_ERROR', message: 'The agent reported an error.', retryable: false }),
    );
    expect(JSON.stringify(events)).not.toContain('secret-token-123');
    expect(JSON.stringify(server.logs)).toContain('AGENT_CRASHED: upstream exploded');
  });

  it('runs a tool the agent leaves to its client through our governance and sends the result back', async () => {
    const { agent, server } = await serve();
    const events = await runToEnd(server, 'client tool orders.lookup {"orderId":"A-1001"}');
    const resource = resourceFromEvents(events);
    const [call] = resource.toolCalls;
    expect(call).toEqual(
      expect.objectContaining({ name: 'orders.lookup', args: { orderId: 'A-1001' }, status: 'completed' }),
    );
    const second = agent.inputs[1];
    const remoteCallId = `client-call-${agent.inputs[0]?.runId}`;
    expect(second?.messages.slice(1)).toEqual([
      {
        id: 'm1',
        role: 'assistant',
        content: 'Calling orders.lookup.',
        toolCalls: [
          {
            id: remoteCallId,
            type: 'function',
            function: { name: 'orders.lookup', arguments: '{"orderId":"A-1001"}' },
          },
        ],
      },
      { id: 'm2', role: 'tool', toolCallId: remoteCallId, content: call?.result?.content },
    ]);
    expect(assistantTexts(resource).at(-1)).toBe(`Result of ${remoteCallId}: ${call?.result?.content}`);
  });

  it('asks the user before a client tool whose policy is ask, bound to the digest of its exact arguments', async () => {
    const { server } = await serve();
    const { runId } = await server.createRun('alice', 'client tool drafts.delete {"draftId":"draft-42"}');
    const followed = await server.follow(runId);
    const asked = await followed.until((events) => events.some((event) => event.type === 'INTERRUPT_REQUESTED'));
    const [request] = dataOf(asked, 'INTERRUPT_REQUESTED');
    expect(request?.interrupt).toEqual(
      expect.objectContaining({ reason: 'tool_call', argsDigest: sha256Digest({ draftId: 'draft-42' }) }),
    );
    const forged = await server.request(`/runs/${runId}/interrupts/${request?.interrupt.id}`, {
      method: 'POST',
      body: { decision: 'allow', argsDigest: sha256Digest({ draftId: 'draft-43' }) },
    });
    expect(forged.status).toBe(412);
    const allowed = await server.request(`/runs/${runId}/interrupts/${request?.interrupt.id}`, {
      method: 'POST',
      body: { decision: 'allow', argsDigest: request?.interrupt.argsDigest },
    });
    expect(allowed.status).toBe(200);
    const resource = resourceFromEvents(await followed.done);
    expect(resource.toolCalls[0]).toEqual(expect.objectContaining({ name: 'drafts.delete', status: 'completed' }));
    expect(resource.status).toBe('completed');
  });

  it('cancels the agent’s request when the user stops the run', async () => {
    const { server } = await serve({ delayMs: 20 });
    const { runId } = await server.createRun('alice', 'slow');
    const followed = await server.follow(runId);
    await followed.until((events) => events.some((event) => event.type === 'TEXT_MESSAGE_CONTENT'));
    const cancel = await server.request(`/runs/${runId}/cancel`, { method: 'POST', body: {} });
    expect(cancel.status).toBe(202);
    const resource = resourceFromEvents(await followed.done);
    expect(resource.status).toBe('cancelled');
    expect(resource.messages.at(-1)?.finishReason).toBe('cancelled');
  });

  it('resumes a dropped stream from its cursor with nothing lost or repeated', async () => {
    const { server } = await serve({ delayMs: 3, slowWords: 120 });
    const { runId } = await server.createRun('alice', 'slow');
    const seen = await readUntil(
      server,
      runId,
      '0',
      (events) => events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').length >= 5,
    );
    const cursor = String(seen.at(-1)?.seq);
    const resumed = await readUntil(server, runId, cursor, (events) =>
      events.some((event) => event.type === 'RUN_FINISHED'),
    );
    const all = [...seen, ...resumed];
    expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index + 1));
    const text = dataOf(all, 'TEXT_MESSAGE_CONTENT')
      .map((data) => data.delta)
      .join('');
    expect(text).toBe(slowAgentWords(120).join(''));
  });
});

describe('createAgUiEngine', () => {
  it('refuses a client tool it has no governed tool for with a failed result the agent reads', async () => {
    const agent = await startAgUiTestAgent();
    const server: TestServer = await startTestServer({
      engine: createAgUiEngine({ url: agent.url, log: () => undefined }),
    });
    closers.push(
      () => server.close(),
      () => agent.close(),
    );
    const { runId } = await server.createRun('alice', 'client tool browser.read_selection {}');
    const resource = await endedRun(server, runId, 'completed');
    expect(resource.toolCalls).toEqual([
      expect.objectContaining({
        name: 'browser.read_selection',
        status: 'failed',
        result: expect.objectContaining({ content: 'There is no tool named "browser.read_selection".' }),
      }),
    ]);
    expect(agent.inputs[0]?.tools).toEqual([]);
    expect(assistantTexts(resource).at(-1)).toBe(
      `client-call-${agent.inputs[0]?.runId} failed (failed): There is no tool named "browser.read_selection".`,
    );
  });

  it('ends the run with a MODEL_ERROR, not retried, when the agent does not answer with an event stream', async () => {
    let requests = 0;
    const notAgent = createServer((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hello</h1>');
    });
    await new Promise<void>((resolve) => notAgent.listen(0, '127.0.0.1', resolve));
    const { port } = notAgent.address() as AddressInfo;
    const server = await startTestServer({
      engine: createAgUiEngine({ url: `http://127.0.0.1:${port}/`, limits: { retryBaseMs: 1 }, log: () => undefined }),
    });
    closers.push(
      () => server.close(),
      () => new Promise((resolve) => notAgent.close(() => resolve())),
    );
    const { runId } = await server.createRun('alice', 'text');
    const resource = await endedRun(server, runId, 'failed');
    expect(resource.error).toEqual(
      expect.objectContaining({
        code: 'MODEL_ERROR',
        message: 'The agent answered with something other than an event stream.',
      }),
    );
    expect(requests).toBe(1);
  });

  it('ends the run with a retryable MODEL_ERROR when the agent cannot be reached', async () => {
    const agent = await startAgUiTestAgent();
    await agent.close();
    const server = await startTestServer({
      engine: createAgUiEngine({ url: agent.url, limits: { retryBaseMs: 1 }, log: () => undefined }),
    });
    closers.push(() => server.close());
    const { runId } = await server.createRun('alice', 'text');
    const resource = await endedRun(server, runId, 'failed');
    expect(resource.error).toEqual(
      expect.objectContaining({ code: 'MODEL_ERROR', message: 'The agent could not be reached.', retryable: true }),
    );
  });
});

/** Waits until the run has `status`, then returns its resource. */
async function endedRun(server: TestServer, runId: string, status: RunResource['status']): Promise<RunResource> {
  const read = async (): Promise<RunResource> => (await (await server.request(`/runs/${runId}`)).json()) as RunResource;
  await expect.poll(async () => (await read()).status).toBe(status);
  return read();
}

/** Reads a run's stream from `after` until `predicate` holds, then drops the connection. */
async function readUntil(
  server: EngineServer,
  runId: string,
  after: string,
  predicate: (events: readonly EventEnvelope[]) => boolean,
): Promise<EventEnvelope[]> {
  const controller = new AbortController();
  const response = await fetch(`${server.baseUrl}/api/agent/v1/runs/${runId}/events?after=${after}`, {
    headers: { 'x-test-user': 'alice' },
    signal: controller.signal,
  });
  const events: EventEnvelope[] = [];
  const parser = createSseParser({ onFrame: (frame) => events.push(JSON.parse(frame.data) as EventEnvelope) });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  while (!predicate(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  controller.abort();
  return events;
}
