import type {
  AnyEventEnvelope,
  EventEnvelope,
  MessageStatus,
  RunSnapshot,
  RunStatus,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
} from '../protocol.ts';
import { isTerminalRunStatus } from '../protocol.ts';
import { pickDefined } from '../pick-defined.ts';

/** Returns the snapshot of a run before its first event (`lastSeq` 0, cursor `"0"`). */
export function createEmptyRunSnapshot(runId: string, sessionId: string): RunSnapshot {
  return {
    runId,
    sessionId,
    status: 'queued',
    agent: null,
    model: null,
    lastSeq: 0,
    resumeCursor: '0',
    messages: [],
    toolCalls: [],
    interrupts: [],
    inputs: [],
    notices: [],
    step: null,
    usage: null,
    costUsd: null,
    outcome: null,
    error: null,
    unconsumedInputIds: [],
    traceId: null,
    createdAt: null,
    updatedAt: null,
  };
}

/**
 * Folds one event into a run snapshot, returning a new snapshot (the input is never mutated).
 * The server builds `GET /runs/{id}` with it and the client renders with it, so "snapshot +
 * tail = full state" holds by construction. An event with `seq <= lastSeq`, or of another run,
 * is a no-op that returns the same object. Gap detection is the caller's job. Unknown event
 * types only advance the cursor (clients ignore what they do not know), unless `extend` folds
 * them: the server always passes `foldExecutorEvents`, a client only with browser tools.
 */
export function reduceRun(snapshot: RunSnapshot, event: EventEnvelope, extend?: RunEventFold): RunSnapshot {
  if (event.seq <= snapshot.lastSeq || event.runId !== snapshot.runId) return snapshot;
  const applied = applyEvent(snapshot, event as AnyEventEnvelope);
  const next: RunSnapshot = {
    ...(extend === undefined ? applied : extend(applied, event as AnyEventEnvelope)),
    lastSeq: event.seq,
    resumeCursor: event.cursor,
    updatedAt: event.timestamp,
  };
  if (next.createdAt === null) next.createdAt = event.timestamp;
  return next;
}

/** Folds a list of events in order, starting from `initial` (empty when omitted), each through `extend` too. */
export function reduceRunEvents(
  events: readonly EventEnvelope[],
  initial?: RunSnapshot,
  extend?: RunEventFold,
): RunSnapshot {
  const first = events[0];
  let snapshot = initial ?? createEmptyRunSnapshot(first?.runId ?? '', first?.sessionId ?? '');
  for (const event of events) snapshot = reduceRun(snapshot, event, extend);
  return snapshot;
}

/**
 * A fold an extension adds after `reduceRun`'s own (the executor events of browser tools,
 * `src/core/state/fold-executor-events.ts`): it gets the snapshot with the event already applied
 * and returns it, changed or not. Never mutates its input.
 */
export type RunEventFold = (snapshot: RunSnapshot, event: AnyEventEnvelope) => RunSnapshot;

function applyEvent(s: RunSnapshot, event: AnyEventEnvelope): RunSnapshot {
  switch (event.type) {
    case 'RUN_STARTED': {
      const { input, agent, model, traceId } = event.data;
      // What is left of the input besides its id and content are the message's optional fields.
      const { messageId, content, ...optional } = input;
      const message: SnapshotMessage = {
        messageId,
        role: 'user',
        content: content.map((part) => part.text).join(''),
        status: 'complete',
        runId: s.runId,
        seq: event.seq,
        createdAt: event.timestamp,
        ...pickDefined(optional),
      };
      return {
        ...s,
        agent,
        model: model ?? null,
        traceId: traceId ?? null,
        messages: [...s.messages, message],
      };
    }
    case 'RUN_STATUS_CHANGED':
      return isTerminalRunStatus(s.status) ? s : { ...s, status: event.data.status };
    case 'STEP_STARTED': {
      const consumed = event.data.consumedInputIds ?? [];
      const inputs =
        consumed.length === 0
          ? s.inputs
          : s.inputs.map((input) =>
              consumed.includes(input.inputId) ? { ...input, state: 'consumed' as const } : input,
            );
      return { ...s, step: event.data.stepName, inputs };
    }
    case 'STEP_FINISHED':
      return { ...s, step: null };
    case 'TEXT_MESSAGE_START': {
      const { messageId, role, parentMessageId, inputId, clientMessageId } = event.data;
      const message = {
        ...startMessage(s, event, messageId, role),
        ...pickDefined({ parentMessageId, inputId, clientMessageId }),
      };
      const inputs =
        inputId === undefined
          ? s.inputs
          : [...s.inputs, { inputId, messageId, ...pickDefined({ clientMessageId }), state: 'pending' as const }];
      return { ...s, messages: [...s.messages, message], inputs };
    }
    case 'REASONING_MESSAGE_START':
      return { ...s, messages: [...s.messages, startMessage(s, event, event.data.messageId, 'reasoning')] };
    case 'TEXT_MESSAGE_CONTENT':
    case 'REASONING_MESSAGE_CONTENT': {
      const { delta } = event.data;
      return updateMessage(s, event.data.messageId, (m) => ({ ...m, content: m.content + delta }));
    }
    case 'TEXT_MESSAGE_END': {
      const { finishReason } = event.data;
      const status: MessageStatus =
        finishReason === 'cancelled' ? 'cancelled' : finishReason === 'error' ? 'error' : 'complete';
      return updateMessage(s, event.data.messageId, (m) => ({ ...m, status, ...pickDefined({ finishReason }) }));
    }
    case 'REASONING_MESSAGE_END':
    case 'REASONING_END':
      return updateMessage(s, event.data.messageId, (m) =>
        m.status === 'streaming' ? { ...m, status: 'complete' } : m,
      );
    case 'TOOL_CALL_START': {
      const { toolCallId, toolCallName, parentMessageId, title } = event.data;
      const call: SnapshotToolCall = {
        toolCallId,
        name: toolCallName,
        status: 'streaming_args',
        runId: s.runId,
        seq: event.seq,
        ...pickDefined({ parentMessageId, title }),
      };
      return { ...s, toolCalls: [...s.toolCalls, call] };
    }
    case 'TOOL_CALL_ARGS': {
      const { delta } = event.data;
      return updateToolCall(s, event.data.toolCallId, (c) => ({ ...c, argsText: (c.argsText ?? '') + delta }));
    }
    case 'TOOL_CALL_END': {
      const { args, argsDigest } = event.data;
      return updateToolCall(s, event.data.toolCallId, (c) => ({ ...c, args, argsDigest, status: 'pending' }));
    }
    case 'TOOL_CALL_PROGRESS': {
      const { message, fraction } = event.data;
      const progress = pickDefined({ message, fraction });
      return updateToolCall(s, event.data.toolCallId, (c) => ({ ...c, progress, status: 'running' }));
    }
    case 'TOOL_CALL_RESULT': {
      const { toolCallId, status, ...result } = event.data;
      return updateToolCall(s, toolCallId, (c) => ({ ...c, status, result: pickDefined(result) }));
    }
    case 'WIDGET_UPDATED': {
      const { toolCallId, widget } = event.data;
      return updateToolCall(s, toolCallId, (c) => (c.result ? { ...c, result: { ...c.result, widget } } : c));
    }
    case 'INTERRUPT_REQUESTED': {
      const interrupt: SnapshotInterrupt = { ...event.data.interrupt, state: 'open', runId: s.runId, seq: event.seq };
      const withInterrupt = { ...s, interrupts: [...s.interrupts, interrupt] };
      return interrupt.toolCallId === undefined
        ? withInterrupt
        : updateToolCall(withInterrupt, interrupt.toolCallId, (c) => ({ ...c, status: 'awaiting_approval' }));
    }
    case 'INTERRUPT_RESOLVED': {
      const { interruptId, status, decision, resolvedBy, editedArgsDigest } = event.data;
      let toolCallId: string | undefined;
      const interrupts = s.interrupts.map((i) => {
        if (i.id !== interruptId) return i;
        toolCallId = i.toolCallId;
        return { ...i, state: status, resolvedBy, ...pickDefined({ decision, editedArgsDigest }) };
      });
      const next = { ...s, interrupts };
      if (toolCallId === undefined) return next;
      return updateToolCall(next, toolCallId, (c) =>
        c.status === 'awaiting_approval' ? { ...c, status: decision === 'allow' ? 'running' : 'pending' } : c,
      );
    }
    case 'MESSAGE_DISCARDED':
      return { ...s, messages: s.messages.filter((m) => m.messageId !== event.data.messageId) };
    case 'NOTICE':
      return { ...s, notices: [...s.notices, event.data] };
    case 'RUN_FINISHED': {
      const { outcome } = event.data;
      return { ...endRun(s, event.data, outcome.type === 'cancelled' ? 'cancelled' : 'completed'), outcome };
    }
    case 'RUN_ERROR': {
      const { code, message, retryable, correlationId } = event.data;
      const error = { code, message, retryable, ...pickDefined({ correlationId }) };
      return { ...endRun(s, event.data, code === 'RUN_TIMEOUT' ? 'expired' : 'failed'), error };
    }
    default:
      return s;
  }
}

function startMessage(
  s: RunSnapshot,
  event: EventEnvelope,
  messageId: string,
  role: SnapshotMessage['role'],
): SnapshotMessage {
  return {
    messageId,
    role,
    content: '',
    status: 'streaming',
    runId: s.runId,
    seq: event.seq,
    createdAt: event.timestamp,
  };
}

/** The fields `RUN_FINISHED` and `RUN_ERROR` both settle. */
function endRun(
  s: RunSnapshot,
  data: { usage?: RunSnapshot['usage']; costUsd?: RunSnapshot['costUsd']; unconsumedInputIds?: string[] },
  status: RunStatus,
): RunSnapshot {
  return {
    ...s,
    status,
    usage: data.usage ?? s.usage,
    costUsd: data.costUsd ?? s.costUsd,
    unconsumedInputIds: data.unconsumedInputIds ?? [],
    step: null,
  };
}

/** Applies a browser executor's receipt: `accepted` starts the call, `progress` reports, a final one is kept for the engine. */
function updateMessage(
  s: RunSnapshot,
  messageId: string,
  update: (m: SnapshotMessage) => SnapshotMessage,
): RunSnapshot {
  return { ...s, messages: updateLast(s.messages, (m) => m.messageId === messageId, update) };
}

/** Replaces the tool call `toolCallId` of the snapshot with `update(call)`; the same snapshot's calls when it has none. */
export function updateToolCall(
  s: RunSnapshot,
  toolCallId: string,
  update: (c: SnapshotToolCall) => SnapshotToolCall,
): RunSnapshot {
  return { ...s, toolCalls: updateLast(s.toolCalls, (c) => c.toolCallId === toolCallId, update) };
}

/** Replaces the last item matching `isTarget` (items are unique by id); the same array when none does. */
function updateLast<T>(items: T[], isTarget: (item: T) => boolean, update: (item: T) => T): T[] {
  const index = items.findLastIndex(isTarget);
  if (index < 0) return items;
  const next = items.slice();
  next[index] = update(items[index] as T);
  return next;
}
