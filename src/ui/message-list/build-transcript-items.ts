import type {
  ClientError,
  ClientState,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
} from '../../core/index.ts';

/** One row of the transcript, in reading order. */
export type TranscriptItem =
  | { kind: 'message'; key: string; message: SnapshotMessage }
  | { kind: 'tool'; key: string; toolCall: SnapshotToolCall; interrupts: SnapshotInterrupt[] }
  | { kind: 'interrupt'; key: string; interrupt: SnapshotInterrupt }
  | { kind: 'failure'; key: string; error: ClientError };

/**
 * Orders the state into transcript rows: each message followed by the tool calls it parented
 * (each with its approvals), then tool calls and interrupts that belong to no shown message. A
 * failed run's error follows that run's last message and its tool calls, so it stays with its turn.
 * Tool calls and approvals are indexed once, so the cost grows with the rows, not their product.
 */
export function buildTranscriptItems(
  state: Pick<ClientState, 'messages' | 'toolCalls' | 'interrupts'> & Partial<Pick<ClientState, 'runErrors'>>,
): TranscriptItem[] {
  const messageIds = new Set(state.messages.map((message) => message.messageId));
  const toolCallIds = new Set(state.toolCalls.map((toolCall) => toolCall.toolCallId));
  const interruptsByToolCall = groupBy(state.interrupts, (interrupt) => interrupt.toolCallId);
  const toolCallsByMessage = groupBy(state.toolCalls, (toolCall) => toolCall.parentMessageId);
  const toolItem = (toolCall: SnapshotToolCall): TranscriptItem => ({
    kind: 'tool',
    key: `tool:${toolCall.toolCallId}`,
    toolCall,
    interrupts: interruptsByToolCall.get(toolCall.toolCallId) ?? [],
  });
  const items: TranscriptItem[] = [];
  for (const message of state.messages) {
    items.push({ kind: 'message', key: `message:${message.messageId}`, message });
    for (const toolCall of toolCallsByMessage.get(message.messageId) ?? []) items.push(toolItem(toolCall));
  }
  for (const toolCall of state.toolCalls) {
    if (!toolCall.parentMessageId || !messageIds.has(toolCall.parentMessageId)) items.push(toolItem(toolCall));
  }
  for (const interrupt of state.interrupts) {
    if (!interrupt.toolCallId || !toolCallIds.has(interrupt.toolCallId)) {
      items.push({ kind: 'interrupt', key: `interrupt:${interrupt.id}`, interrupt });
    }
  }
  for (const error of state.runErrors ?? []) {
    items.splice(endOfRun(items, error.runId), 0, { kind: 'failure', key: `failure:${error.runId}`, error });
  }
  return items;
}

/** The index after the run's last message and the tool rows that follow it (the end when none is shown). */
function endOfRun(items: readonly TranscriptItem[], runId: string | undefined): number {
  const last = items.findLastIndex((item) => item.kind === 'message' && item.message.runId === runId);
  if (last < 0) return items.length;
  let end = last + 1;
  while (items[end]?.kind === 'tool') end += 1;
  return end;
}

/** Groups values by a key (values without one land under `undefined`, which no lookup asks for). */
function groupBy<T>(values: readonly T[], keyOf: (value: T) => string | undefined): Map<string | undefined, T[]> {
  const groups = new Map<string | undefined, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}

/**
 * Returns whether the answer after the reasoning message at `index` has started: a later
 * assistant message of the same run already has text.
 */
export function hasAnswerStarted(messages: readonly SnapshotMessage[], index: number): boolean {
  const reasoning = messages[index];
  if (!reasoning) return false;
  return messages.some(
    (message, next) =>
      next > index && message.role === 'assistant' && message.content.length > 0 && message.runId === reasoning.runId,
  );
}
