import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import { dataOf } from '../agent-loop/test-support/run-engine-harness.ts';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { freshKey } from '../test-support/start-test-server.ts';

// What a host's OpenTelemetry SDK sets up (NodeSDK does the same): the W3C propagator and an
// AsyncLocalStorage context manager; the spans go to the in-memory exporter.
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
  exporter.reset();
});

async function serve(): Promise<EngineServer> {
  const server = await startEngineServer({ handler: { tracerProvider } });
  open.push(server);
  return server;
}

const BROWSER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const BROWSER_SPAN_ID = '00f067aa0ba902b7';

async function createRun(server: EngineServer, text: string, headers: Record<string, string> = {}) {
  const response = await server.request('/runs', {
    body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] } },
    headers: { 'idempotency-key': freshKey(), ...headers },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { runId: string; sessionId: string };
}

const named = (prefix: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => span.name.startsWith(prefix));
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined): string | undefined => span?.spanContext().spanId;

describe('OpenTelemetry spans of a run', () => {
  it("nest run → round → model call and tool call → approval, with GenAI attributes, in the page's trace", async () => {
    const server = await serve();
    const { runId, sessionId } = await createRun(server, '/approval', {
      traceparent: `00-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-01`,
    });
    const run = await server.follow(runId);
    const asked = await run.until((events) => events.some((e) => e.type === 'INTERRUPT_REQUESTED'));
    const interrupt = dataOf(asked, 'INTERRUPT_REQUESTED')[0]?.interrupt;
    await server.request(`/runs/${runId}/interrupts/${interrupt?.id ?? ''}`, {
      body: { decision: 'allow', argsDigest: interrupt?.argsDigest },
    });
    const events: EventEnvelope[] = await run.done;

    const [runSpan, ...otherRuns] = named('invoke_agent');
    expect(otherRuns).toEqual([]);
    expect(runSpan?.spanContext().traceId).toBe(BROWSER_TRACE_ID);
    expect(parentOf(runSpan as ReadableSpan)).toBe(BROWSER_SPAN_ID);
    expect(runSpan?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': 'agt_demo',
      'gen_ai.conversation.id': sessionId,
      'agent_chat.run_id': runId,
      'agent_chat.session_id': sessionId,
      'agent_chat.outcome': 'success',
      'agent_chat.rounds': 3,
    });

    const rounds = named('agent_chat.round').sort((a, b) =>
      String(a.attributes['agent_chat.step_name']).localeCompare(String(b.attributes['agent_chat.step_name'])),
    );
    expect(rounds.map((span) => span.attributes['agent_chat.step_name'])).toEqual(['round:1', 'round:2', 'round:3']);
    for (const round of rounds) expect(parentOf(round)).toBe(idOf(runSpan));

    const models = named('chat ');
    expect(models).toHaveLength(3);
    const finishReasons = rounds.map((round) => {
      const [model, ...more] = models.filter((span) => parentOf(span) === idOf(round));
      expect(more).toEqual([]);
      expect(model?.name).toBe('chat scripted');
      expect(model?.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted' });
      expect(model?.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(model?.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      return model?.attributes['gen_ai.response.finish_reasons'];
    });
    expect(finishReasons).toEqual([['tool_calls'], ['tool_calls'], ['stop']]);

    const [listCall, deleteCall] = dataOf(events, 'TOOL_CALL_START');
    const [listSpan] = named('execute_tool drafts.list');
    const [deleteSpan] = named('execute_tool drafts.delete');
    expect(parentOf(listSpan as ReadableSpan)).toBe(idOf(rounds[0]));
    expect(parentOf(deleteSpan as ReadableSpan)).toBe(idOf(rounds[1]));
    expect(listSpan?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'drafts.list',
      'gen_ai.tool.call.id': listCall?.toolCallId,
      'agent_chat.tool.status': 'completed',
    });
    expect(deleteSpan?.attributes['gen_ai.tool.call.id']).toBe(deleteCall?.toolCallId);
    const [approval] = named('agent_chat.approval');
    expect(parentOf(approval as ReadableSpan)).toBe(idOf(deleteSpan));
    expect(approval?.attributes['agent_chat.approval.decision']).toBe('allow');

    for (const span of exporter.getFinishedSpans()) {
      expect(span.spanContext().traceId).toBe(BROWSER_TRACE_ID);
      expect(span.attributes).toMatchObject({ 'agent_chat.run_id': runId, 'agent_chat.session_id': sessionId });
    }
  });

  it('mark a failed model attempt as an error beside the retry that succeeded; a run without traceparent starts its own trace', async () => {
    const server = await serve();
    const { runId } = await createRun(server, '/error');
    await (
      await server.follow(runId)
    ).done;
    const [runSpan] = named('invoke_agent');
    expect(runSpan?.parentSpanContext).toBeUndefined();
    expect(runSpan?.spanContext().traceId).not.toBe(BROWSER_TRACE_ID);
    const attempts = named('chat scripted').sort(
      (a, b) => Number(a.attributes['agent_chat.attempt']) - Number(b.attributes['agent_chat.attempt']),
    );
    expect(
      attempts.map((span) => [span.attributes['agent_chat.attempt'], span.status.code, span.attributes['error.type']]),
    ).toEqual([
      [1, 2, 'MODEL_ERROR'],
      [2, 0, undefined],
    ]);
  });
});
