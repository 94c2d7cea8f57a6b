import type { Event as AgUiEvent, Interrupt, TokenUsage as AgUiTokenUsage } from '@ag-ui/core';
import { EventType } from '@ag-ui/core';
import type { EventDataMap, EventEnvelope, InterruptRequest, TokenUsage } from '../../core/protocol.ts';

/** The metadata key our own details ride under in AG-UI events (`ag-ui` is AG-UI's; docs/ag-ui.md). */
export const AGENT_CHAT_METADATA_KEY = 'agent-chat';

/** Options of {@link createAgUiTranslator}: the AG-UI run being served and the run of ours behind it. */
export interface AgUiTranslatorOptions {
  /** The AG-UI `threadId` and `runId` the client sent (echoed in every run-scoped event). */
  threadId: string;
  runId: string;
  /** Our run and session, published in `RUN_STARTED.metadata['agent-chat']`. */
  ourRunId: string;
  sessionId: string;
}

/** What one of our events becomes: AG-UI events (maybe none), and whether the AG-UI run ends with it. */
export interface AgUiTranslation {
  events: AgUiEvent[];
  isEnd: boolean;
}

/** Turns one segment of our run's log into one AG-UI run. */
export interface AgUiTranslator {
  translate(event: EventEnvelope): AgUiTranslation;
  /** True once the AG-UI run's last event (`RUN_FINISHED` or `RUN_ERROR`) went out. */
  isEnded(): boolean;
}

/**
 * Creates the translator of one AG-UI run (docs/ag-ui.md, "Mapping"): our log from the segment's
 * start is turned into AG-UI events in order. The first event is preceded by `RUN_STARTED`; our
 * terminal event ends the AG-UI run, and so does `RUN_STATUS_CHANGED{awaiting_input}`, as
 * `RUN_FINISHED{outcome: interrupt}` with the interrupts still open (the run of ours goes on and
 * a resume continues it). Steps opened in the segment are closed before it ends, a step this
 * segment never opened is not closed, and a tool call whose arguments were not streamed gets
 * them as one `TOOL_CALL_ARGS`, so every AG-UI run is well formed on its own.
 */
export function createAgUiTranslator(options: AgUiTranslatorOptions): AgUiTranslator {
  const { threadId, runId } = options;
  let isStarted = false;
  let isEnded = false;
  const openSteps = new Set<string>();
  const streamedArgs = new Set<string>();
  const openInterrupts = new Map<string, InterruptRequest>();

  const closeSteps = (): AgUiEvent[] => {
    const closing = [...openSteps].map((stepName): AgUiEvent => ({ type: EventType.STEP_FINISHED, stepName }));
    openSteps.clear();
    return closing;
  };
  const end = (events: AgUiEvent[]): AgUiTranslation => {
    isEnded = true;
    return { events, isEnd: true };
  };

  const translate = (event: EventEnvelope): AgUiTranslation => {
    const data = event.data as EventDataMap[keyof EventDataMap];
    switch (event.type) {
      case 'RUN_STATUS_CHANGED': {
        const { status } = data as EventDataMap['RUN_STATUS_CHANGED'];
        if (status !== 'awaiting_input' || openInterrupts.size === 0) return none();
        const interrupts = [...openInterrupts.values()].map(toAgUiInterrupt);
        return end([
          ...closeSteps(),
          { type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: 'interrupt', interrupts } },
        ]);
      }
      case 'STEP_STARTED': {
        const { stepName } = data as EventDataMap['STEP_STARTED'];
        openSteps.add(stepName);
        return some({ type: EventType.STEP_STARTED, stepName });
      }
      case 'STEP_FINISHED': {
        const { stepName } = data as EventDataMap['STEP_FINISHED'];
        // A step opened before an interrupt ended the previous AG-UI run was closed there already.
        if (!openSteps.delete(stepName)) return none();
        return some({ type: EventType.STEP_FINISHED, stepName });
      }
      case 'TEXT_MESSAGE_START': {
        const { messageId, role } = data as EventDataMap['TEXT_MESSAGE_START'];
        return some({ type: EventType.TEXT_MESSAGE_START, messageId, role });
      }
      case 'TEXT_MESSAGE_CONTENT': {
        const { messageId, delta } = data as EventDataMap['TEXT_MESSAGE_CONTENT'];
        return some({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta });
      }
      case 'TEXT_MESSAGE_END': {
        const { messageId, finishReason } = data as EventDataMap['TEXT_MESSAGE_END'];
        return some({
          type: EventType.TEXT_MESSAGE_END,
          messageId,
          ...ours(finishReason === undefined ? undefined : { finishReason }),
        });
      }
      case 'REASONING_START':
        return some({ type: EventType.REASONING_START, messageId: reasoningId(data) });
      case 'REASONING_MESSAGE_START':
        return some({ type: EventType.REASONING_MESSAGE_START, messageId: reasoningId(data), role: 'reasoning' });
      case 'REASONING_MESSAGE_CONTENT': {
        const { messageId, delta } = data as EventDataMap['REASONING_MESSAGE_CONTENT'];
        return some({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta });
      }
      case 'REASONING_MESSAGE_END':
        return some({ type: EventType.REASONING_MESSAGE_END, messageId: reasoningId(data) });
      case 'REASONING_END':
        return some({ type: EventType.REASONING_END, messageId: reasoningId(data) });
      case 'TOOL_CALL_START': {
        const { toolCallId, toolCallName, parentMessageId, title } = data as EventDataMap['TOOL_CALL_START'];
        return some({
          type: EventType.TOOL_CALL_START,
          toolCallId,
          toolCallName,
          ...(parentMessageId === undefined ? {} : { parentMessageId }),
          ...ours(title === undefined ? undefined : { title }),
        });
      }
      case 'TOOL_CALL_ARGS': {
        const { toolCallId, delta } = data as EventDataMap['TOOL_CALL_ARGS'];
        streamedArgs.add(toolCallId);
        return some({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta });
      }
      case 'TOOL_CALL_END': {
        const { toolCallId, args, argsDigest } = data as EventDataMap['TOOL_CALL_END'];
        const events: AgUiEvent[] = streamedArgs.delete(toolCallId)
          ? []
          : [{ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(args) ?? 'null' }];
        events.push({ type: EventType.TOOL_CALL_END, toolCallId, ...ours({ argsDigest }) });
        return { events, isEnd: false };
      }
      case 'TOOL_CALL_PROGRESS': {
        const { toolCallId, message, fraction } = data as EventDataMap['TOOL_CALL_PROGRESS'];
        return some({
          type: EventType.ACTIVITY_SNAPSHOT,
          messageId: `progress_${toolCallId}`,
          activityType: 'tool_progress',
          content: {
            toolCallId,
            ...(message === undefined ? {} : { message }),
            ...(fraction === undefined ? {} : { fraction }),
          },
        });
      }
      case 'TOOL_CALL_RESULT': {
        const { toolCallId, messageId, content, status, truncated, widget } = data as EventDataMap['TOOL_CALL_RESULT'];
        const result: AgUiEvent = {
          type: EventType.TOOL_CALL_RESULT,
          messageId,
          toolCallId,
          content,
          role: 'tool',
          ...ours({ status, ...(truncated === true ? { truncated } : {}) }),
        };
        // A widget (docs/widgets.md) follows its result as a CUSTOM event: AG-UI has no widget of its own.
        if (widget === undefined) return some(result);
        return {
          events: [result, { type: EventType.CUSTOM, name: 'agent-chat.widget', value: { toolCallId, widget } }],
          isEnd: false,
        };
      }
      case 'WIDGET_UPDATED': {
        const { toolCallId, widget } = data as EventDataMap['WIDGET_UPDATED'];
        // The same event as the widget's first showing: a consumer keeps the latest per widgetId.
        return some({ type: EventType.CUSTOM, name: 'agent-chat.widget', value: { toolCallId, widget } });
      }
      case 'INTERRUPT_REQUESTED': {
        const { interrupt } = data as EventDataMap['INTERRUPT_REQUESTED'];
        openInterrupts.set(interrupt.id, interrupt);
        return none();
      }
      case 'INTERRUPT_RESOLVED':
        openInterrupts.delete((data as EventDataMap['INTERRUPT_RESOLVED']).interruptId);
        return none();
      case 'MESSAGE_DISCARDED':
        return some({ type: EventType.CUSTOM, name: 'agent-chat.message_discarded', value: data });
      case 'NOTICE':
        return some({ type: EventType.CUSTOM, name: 'agent-chat.notice', value: data });
      case 'CUSTOM': {
        const { name, value } = data as EventDataMap['CUSTOM'];
        return some({ type: EventType.CUSTOM, name, value: value ?? {} });
      }
      case 'STATE_SNAPSHOT':
        return some({ type: EventType.STATE_SNAPSHOT, snapshot: (data as EventDataMap['STATE_SNAPSHOT']).snapshot });
      case 'STATE_DELTA':
        return some({
          type: EventType.STATE_DELTA,
          delta: (data as EventDataMap['STATE_DELTA']).delta as Extract<
            AgUiEvent,
            { type: EventType.STATE_DELTA }
          >['delta'],
        });
      case 'RUN_FINISHED': {
        const { outcome, usage } = data as EventDataMap['RUN_FINISHED'];
        const agUiOutcome =
          outcome.type === 'cancelled'
            ? { type: 'cancelled' as const }
            : {
                // A run a tool ended on purpose (`stopped`) finished normally for an AG-UI client.
                type: 'success' as const,
                ...(outcome.type === 'success' && outcome.pendingToolCallIds !== undefined
                  ? { pendingToolCallIds: outcome.pendingToolCallIds }
                  : {}),
              };
        return end([
          ...closeSteps(),
          {
            type: EventType.RUN_FINISHED,
            threadId,
            runId,
            outcome: agUiOutcome,
            ...(usage === undefined ? {} : { usage: usage.map(toAgUiUsage) }),
          },
        ]);
      }
      case 'RUN_ERROR': {
        const { code, message, retryable, correlationId, usage } = data as EventDataMap['RUN_ERROR'];
        return end([
          ...closeSteps(),
          {
            type: EventType.RUN_ERROR,
            message,
            code,
            ...(usage === undefined ? {} : { usage: usage.map(toAgUiUsage) }),
            ...ours({ retryable, ...(correlationId === undefined ? {} : { correlationId }) }),
          },
        ]);
      }
      default:
        // RUN_STARTED is the AG-UI run's opener below; anything else has no AG-UI counterpart.
        return none();
    }
  };

  return {
    translate(event) {
      const translated = translate(event);
      if (isStarted) return translated;
      isStarted = true;
      const started: AgUiEvent = {
        type: EventType.RUN_STARTED,
        threadId,
        runId,
        ...ours({ runId: options.ourRunId, sessionId: options.sessionId }),
      };
      return { events: [started, ...translated.events], isEnd: translated.isEnd };
    },
    isEnded: () => isEnded,
  };
}

function none(): AgUiTranslation {
  return { events: [], isEnd: false };
}

function some(event: AgUiEvent): AgUiTranslation {
  return { events: [event], isEnd: false };
}

function reasoningId(data: unknown): string {
  return (data as { messageId: string }).messageId;
}

/** `{metadata: {'agent-chat': details}}`, or nothing when there are no details. */
function ours(details: Record<string, unknown> | undefined): { metadata?: Record<string, unknown> } {
  return details === undefined ? {} : { metadata: { [AGENT_CHAT_METADATA_KEY]: details } };
}

function toAgUiInterrupt(interrupt: InterruptRequest): Interrupt {
  const { id, reason, message, toolCallId, argsDigest, responseSchema, expiresAt, metadata } = interrupt;
  // A tool approval is answered with {decision, argsDigest}: the schema pins the digest of exactly the
  // arguments shown, so a generic client that builds its answer from the schema approves those only.
  const approvalSchema =
    reason === 'tool_call'
      ? {
          type: 'object',
          properties: {
            decision: { enum: ['allow', 'deny'] },
            ...(argsDigest === undefined ? {} : { argsDigest: { const: argsDigest } }),
            reason: { type: 'string' },
          },
          required: argsDigest === undefined ? ['decision'] : ['decision', 'argsDigest'],
          additionalProperties: false,
        }
      : undefined;
  const schema = responseSchema ?? approvalSchema;
  return {
    id,
    reason,
    ...(message === undefined ? {} : { message }),
    ...(toolCallId === undefined ? {} : { toolCallId }),
    ...(schema === undefined ? {} : { responseSchema: schema }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    metadata: { ...metadata, [AGENT_CHAT_METADATA_KEY]: argsDigest === undefined ? {} : { argsDigest } },
  };
}

function toAgUiUsage(usage: TokenUsage): AgUiTokenUsage {
  return {
    ...(usage.modelId === undefined ? {} : { model: usage.modelId }),
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
    ...(usage.reasoningTokens === undefined ? {} : { reasoningTokens: usage.reasoningTokens }),
  };
}
