import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { context as otelContext, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { AnyEventEnvelope, EventEnvelope, RunErrorCode } from '../../core/protocol.ts';
import { LoopStop } from '../agent-loop/loop-stop.ts';
import { ModelError } from '../models/model-adapter.ts';
import type { RunHandle } from '../runs/run-handle.ts';
import type { CreateRunCommand } from '../storage/storage-port.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { ModelCallObservation, RunObserver } from './run-observer.ts';
import type { StructuredLog } from './structured-log.ts';

/** Turns each run's events (as this process appends them) and its engine's model calls into metrics, spans and logs. */
export interface RunTelemetry {
  /** A run was committed by this process (`storage.createRun` said `created`), in the creating request's context. */
  runCreated(command: CreateRunCommand, requestId: string | undefined): void;
  /** Events this process appended to a run's log. */
  eventsAppended(runId: string, events: readonly EventEnvelope[]): void;
  /** The hooks of one run for its engine (`RunHandle.observer`). */
  observerFor(handle: RunHandle): RunObserver;
  /** Ends every span still open (the handler closes). */
  close(): void;
}

/** Options of {@link createRunTelemetry}. */
export interface RunTelemetryOptions {
  metrics: AgentMetrics | null;
  tracer: Tracer;
  log: StructuredLog;
}

interface SpanScope {
  span: Span;
  context: Context;
}

interface ToolState {
  tool: string;
  readyAt: number | null;
  scope: SpanScope | null;
}

interface RunState {
  runId: string;
  sessionId: string;
  subject: string | undefined;
  requestId: string | undefined;
  startedAt: number | null;
  run: SpanScope;
  isTracing: boolean;
  round: SpanScope | null;
  rounds: number;
  toolCallCount: number;
  /** The server tools the run's engine said it may call (`RunObserver.toolsRegistered`). */
  registered: ReadonlySet<string>;
  hasFirstToken: boolean;
  tools: Map<string, ToolState>;
  approvals: Map<string, { askedAt: number; toolCallId: string | undefined; scope: SpanScope | null }>;
}

/** Runs followed at once; past it the oldest is let go (its spans end), so a run never ended here cannot leak. */
const MAX_TRACKED_RUNS = 10_000;
/**
 * Distinct registered server tool names given their own label; any more are `other`, and a name
 * the run's engine did not register is `unregistered` (labels stay bounded, whatever the model calls).
 */
const MAX_TOOL_LABELS = 100;
const RUN_ERROR_CODES: ReadonlySet<string> = new Set<RunErrorCode>([
  'MODEL_ERROR',
  'MODEL_TIMEOUT',
  'MAX_ITERATIONS',
  'TOKEN_BUDGET_EXCEEDED',
  'COST_LIMIT_EXCEEDED',
  'TOOL_DISPATCH_ERROR',
  'RUN_TIMEOUT',
  'RUN_ABANDONED',
  'INTERNAL',
]);

/** Creates the run telemetry of one handler. */
export function createRunTelemetry(options: RunTelemetryOptions): RunTelemetry {
  const { metrics, tracer, log } = options;
  const runs = new Map<string, RunState>();
  const toolLabels = new Set<string>();

  const toolLabel = (state: RunState, name: string, executorKind: string | undefined): string => {
    if (executorKind !== undefined) return executorKind;
    if (!state.registered.has(name)) return 'unregistered';
    if (toolLabels.has(name)) return name;
    if (toolLabels.size >= MAX_TOOL_LABELS) return 'other';
    toolLabels.add(name);
    return name;
  };

  const ids = (state: RunState): Attributes => ({
    'agent_chat.run_id': state.runId,
    'agent_chat.session_id': state.sessionId,
  });

  const child = (state: RunState, parent: SpanScope, name: string, attributes: Attributes, at?: number): SpanScope => {
    const span = tracer.startSpan(
      name,
      { attributes: { ...ids(state), ...attributes }, ...(at === undefined ? {} : { startTime: at }) },
      parent.context,
    );
    return { span, context: trace.setSpan(parent.context, span) };
  };

  const track = (state: RunState): void => {
    runs.set(state.runId, state);
    if (runs.size <= MAX_TRACKED_RUNS) return;
    const oldest = runs.values().next().value;
    if (oldest !== undefined) letGo(oldest, Date.now());
  };

  const letGo = (state: RunState, at: number): void => {
    runs.delete(state.runId);
    for (const approval of state.approvals.values()) approval.scope?.span.end(at);
    for (const tool of state.tools.values()) tool.scope?.span.end(at);
    state.round?.span.end(at);
    state.run.span.end(at);
  };

  const newState = (
    seed: Pick<RunState, 'runId' | 'sessionId' | 'subject' | 'requestId' | 'startedAt'>,
    attributes: Attributes,
  ): RunState => {
    const parent = otelContext.active();
    const span = tracer.startSpan(
      'invoke_agent',
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.conversation.id': seed.sessionId,
          'agent_chat.run_id': seed.runId,
          'agent_chat.session_id': seed.sessionId,
          ...attributes,
        },
        ...(seed.startedAt === null ? {} : { startTime: seed.startedAt }),
      },
      parent,
    );
    return {
      ...seed,
      run: { span, context: trace.setSpan(parent, span) },
      isTracing: span.isRecording(),
      round: null,
      rounds: 0,
      toolCallCount: 0,
      registered: new Set(),
      hasFirstToken: false,
      tools: new Map(),
      approvals: new Map(),
    };
  };

  const onEvent = (state: RunState | undefined, event: AnyEventEnvelope): void => {
    const at = event.timestamp;
    switch (event.type) {
      case 'STEP_STARTED':
        if (state === undefined) return;
        state.rounds += 1;
        state.round?.span.end(at);
        state.round = state.isTracing
          ? child(state, state.run, 'agent_chat.round', { 'agent_chat.step_name': event.data.stepName }, at)
          : null;
        return;
      case 'STEP_FINISHED':
        state?.round?.span.end(at);
        if (state !== undefined) state.round = null;
        return;
      case 'TEXT_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_CONTENT':
        if (state === undefined || state.hasFirstToken) return;
        state.hasFirstToken = true;
        if (state.startedAt !== null) metrics?.timeToFirstToken.observe(seconds(at - state.startedAt));
        return;
      case 'TOOL_CALL_START': {
        if (state === undefined) return;
        state.toolCallCount += 1;
        const tool = toolLabel(state, event.data.toolCallName, event.data.executorKind);
        const scope = state.isTracing
          ? child(
              state,
              state.round ?? state.run,
              `execute_tool ${tool}`,
              {
                'gen_ai.operation.name': 'execute_tool',
                'gen_ai.tool.name': event.data.toolCallName,
                'gen_ai.tool.call.id': event.data.toolCallId,
                'agent_chat.tool.executor': event.data.executorKind ?? 'server',
              },
              at,
            )
          : null;
        state.tools.set(event.data.toolCallId, { tool, readyAt: null, scope });
        return;
      }
      case 'TOOL_CALL_END': {
        const tool = state?.tools.get(event.data.toolCallId);
        if (tool !== undefined) tool.readyAt = at;
        return;
      }
      case 'TOOL_CALL_RESULT': {
        const tool = state?.tools.get(event.data.toolCallId);
        state?.tools.delete(event.data.toolCallId);
        const label = tool?.tool ?? 'unknown';
        metrics?.toolCalls.inc({ tool: label, status: event.data.status });
        if (tool?.readyAt != null) {
          metrics?.toolCallDuration.observe({ tool: label, status: event.data.status }, seconds(at - tool.readyAt));
        }
        if (tool?.scope != null) {
          tool.scope.span.setAttribute('agent_chat.tool.status', event.data.status);
          if (event.data.status === 'failed' || event.data.status === 'unknown') {
            tool.scope.span.setStatus({ code: SpanStatusCode.ERROR });
            tool.scope.span.setAttribute('error.type', `tool_${event.data.status}`);
          }
          tool.scope.span.end(at);
        }
        return;
      }
      case 'INTERRUPT_REQUESTED': {
        if (state === undefined) return;
        const { id, toolCallId, reason } = event.data.interrupt;
        const parent = (toolCallId === undefined ? undefined : state.tools.get(toolCallId)?.scope) ?? state.run;
        const scope = state.isTracing
          ? child(state, parent, 'agent_chat.approval', { 'agent_chat.interrupt.reason': String(reason) }, at)
          : null;
        state.approvals.set(id, { askedAt: at, toolCallId, scope });
        return;
      }
      case 'INTERRUPT_RESOLVED': {
        const { status, decision: answer, interruptId } = event.data;
        const decision = status === 'resolved' ? (answer ?? 'deny') : status;
        metrics?.approvals.inc({ decision });
        const approval = state?.approvals.get(interruptId);
        if (state === undefined || approval === undefined) return;
        state.approvals.delete(interruptId);
        metrics?.approvalWait.observe({ decision }, seconds(at - approval.askedAt));
        approval.scope?.span.setAttribute('agent_chat.approval.decision', decision);
        approval.scope?.span.end(at);
        const tool = approval.toolCallId === undefined ? undefined : state.tools.get(approval.toolCallId);
        if (tool !== undefined) tool.readyAt = at;
        return;
      }
      case 'RUN_FINISHED':
      case 'RUN_ERROR':
        if (state !== undefined) ended(state, event);
        return;
      default:
        return;
    }
  };

  const ended = (state: RunState, event: EventEnvelope<'RUN_FINISHED'> | EventEnvelope<'RUN_ERROR'>): void => {
    const at = event.timestamp;
    const outcome = event.type === 'RUN_ERROR' ? 'error' : event.data.outcome.type;
    const code =
      event.type === 'RUN_ERROR' ? (RUN_ERROR_CODES.has(event.data.code) ? event.data.code : 'OTHER') : undefined;
    const durationMs = state.startedAt === null ? undefined : at - state.startedAt;
    metrics?.runsFinished.inc({ outcome });
    if (code !== undefined) metrics?.runErrors.inc({ code });
    if (durationMs !== undefined) metrics?.runDuration.observe({ outcome }, seconds(durationMs));
    const { span } = state.run;
    if (state.isTracing) {
      span.setAttributes({ 'agent_chat.outcome': outcome, 'agent_chat.rounds': state.rounds });
      if (code !== undefined) {
        span.setAttribute('error.type', code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      }
    }
    letGo(state, at);
    log.write('info', 'run_ended', {
      requestId: state.requestId,
      runId: state.runId,
      sessionId: state.sessionId,
      subject: state.subject,
      outcome,
      code,
      durationMs,
      rounds: state.rounds,
      toolCalls: state.toolCallCount,
      ...(event.type === 'RUN_ERROR' ? { correlationId: event.data.correlationId } : {}),
    });
  };

  const modelCall = (state: RunState, call: { modelId: string; attempt: number }): ModelCallObservation => {
    const model = call.modelId;
    const startedAt = performance.now();
    const scope = state.isTracing
      ? child(state, state.round ?? state.run, `chat ${model}`, {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': model,
          'agent_chat.attempt': call.attempt,
        })
      : null;
    const observe = (outcome: string): void => {
      metrics?.modelCalls.inc({ model, outcome });
      metrics?.modelCallDuration.observe({ model, outcome }, (performance.now() - startedAt) / 1000);
    };
    return {
      succeeded({ finishReason, usage }) {
        observe('success');
        if (usage !== null) {
          metrics?.modelTokens.inc({ model, kind: 'input' }, usage.inputTokens);
          metrics?.modelTokens.inc({ model, kind: 'output' }, usage.outputTokens);
          if (usage.reasoningTokens !== undefined) {
            metrics?.modelTokens.inc({ model, kind: 'reasoning' }, usage.reasoningTokens);
          }
        }
        if (scope === null) return;
        scope.span.setAttribute('gen_ai.response.finish_reasons', [finishReason]);
        if (usage !== null) {
          scope.span.setAttributes({
            'gen_ai.usage.input_tokens': usage.inputTokens,
            'gen_ai.usage.output_tokens': usage.outputTokens,
            ...(usage.modelId === undefined ? {} : { 'gen_ai.response.model': usage.modelId }),
          });
        }
        scope.span.end();
      },
      failed(error, willRetry) {
        const { outcome, code } = classifyModelFailure(error);
        observe(outcome);
        const status = error instanceof ModelError ? error.status : undefined;
        const level = outcome === 'cancelled' ? 'debug' : 'warn';
        log.write(level, willRetry ? 'model_retry' : 'model_failed', {
          runId: state.runId,
          sessionId: state.sessionId,
          requestId: state.requestId,
          model,
          attempt: call.attempt,
          outcome,
          code,
          httpStatus: status,
        });
        if (scope === null) return;
        if (outcome !== 'cancelled') {
          scope.span.setAttribute('error.type', code);
          scope.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
        }
        scope.span.end();
      },
    };
  };

  return {
    runCreated(command, requestId) {
      const { started, run } = command;
      metrics?.runsStarted.inc();
      track(
        newState(
          {
            runId: run.runId,
            sessionId: run.sessionId,
            subject: log.hashSubject(run.subjectId),
            requestId,
            startedAt: started.timestamp,
          },
          {
            'gen_ai.agent.id': started.data.agent.agentId,
            'agent_chat.agent_version_id': started.data.agent.versionId,
            ...(started.data.model === undefined ? {} : { 'gen_ai.request.model': started.data.model.modelId }),
          },
        ),
      );
    },
    eventsAppended(runId, events) {
      const state = runs.get(runId);
      for (const event of events) onEvent(state, event as AnyEventEnvelope);
    },
    observerFor(handle) {
      const known = runs.get(handle.runId);
      // A run adopted from a process that died: followed from here on, in a trace of its own.
      const state =
        known ??
        newState(
          {
            runId: handle.runId,
            sessionId: handle.sessionId,
            subject: log.hashSubject(handle.subject.id),
            requestId: undefined,
            startedAt: handle.snapshot().createdAt ?? null,
          },
          { 'agent_chat.resumed': true },
        );
      if (known === undefined) track(state);
      return {
        modelCall: (call) => modelCall(state, call),
        toolsRegistered: (names) => {
          state.registered = new Set(names);
        },
      };
    },
    close() {
      const now = Date.now();
      for (const state of [...runs.values()]) letGo(state, now);
    },
  };
}

/** The bounded outcome label and the code of a failed model attempt. */
function classifyModelFailure(error: unknown): { outcome: string; code: string } {
  if (error instanceof ModelError)
    return { outcome: error.code === 'MODEL_TIMEOUT' ? 'timeout' : 'error', code: error.code };
  if (error instanceof LoopStop) {
    const { stop } = error;
    if (stop.kind === 'cancel') return { outcome: 'cancelled', code: 'cancelled' };
    if (stop.kind === 'error' && stop.code === 'MODEL_TIMEOUT') return { outcome: 'timeout', code: stop.code };
    return { outcome: 'stopped', code: stop.kind === 'error' ? stop.code : stop.kind };
  }
  return { outcome: 'error', code: error instanceof Error ? error.name : 'unknown' };
}

function seconds(ms: number): number {
  return Math.max(0, ms) / 1000;
}
