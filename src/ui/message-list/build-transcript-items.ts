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
 * Orders the state into transcript rows by one rule (docs/protocol.md §7.4): run by run, in the
 * order the runs' messages come, and within a run by the `seq` that started each item (its user
 * message, reasoning, text, tool calls with their approvals, other interrupts); a failed run's
 * error ends its run. So a tool call shows where it was made, whether or not text came first, live
 * and restored alike. Items stored before `seq` was recorded keep the older placement: a tool call
 * after the message it names (in that message's run), else at its run's end. Each run's items are
 * sorted on their own, so the cost grows with the rows, not their product.
 */
export function buildTranscriptItems(
  state: Pick<ClientState, 'messages' | 'toolCalls' | 'interrupts'> & Partial<Pick<ClientState, 'runErrors'>>,
): TranscriptItem[] {
  const toolCallIds = new Set(state.toolCalls.map((toolCall) => toolCall.toolCallId));
  const interruptsByToolCall = groupBy(state.interrupts, (interrupt) => interrupt.toolCallId);
  /** Each run's items with where they stand in it; runs in the order they are first met. */
  const runs = new Map<string | undefined, { at: number; item: TranscriptItem }[]>();
  /** Where each message stands, read only for a tool call stored without its run or `seq`. */
  let messagePlaces: Map<string, { runId: string | undefined; at: number }> | undefined;
  const placeOf = (messageId = '') =>
    (messagePlaces ??= new Map(
      state.messages.map((message, index) => [message.messageId, { runId: message.runId, at: message.seq ?? index }]),
    )).get(messageId);
  const place = (runId: string | undefined, at: number, item: TranscriptItem): void => {
    const items = runs.get(runId);
    if (items) items.push({ at, item });
    else runs.set(runId, [{ at, item }]);
  };
  state.messages.forEach((message, index) => {
    place(message.runId, message.seq ?? index, { kind: 'message', key: `message:${message.messageId}`, message });
  });
  for (const toolCall of state.toolCalls) {
    const parent =
      toolCall.runId === undefined || toolCall.seq === undefined ? placeOf(toolCall.parentMessageId) : undefined;
    place(toolCall.runId ?? parent?.runId, toolCall.seq ?? (parent ? parent.at + 0.5 : Infinity), {
      kind: 'tool',
      key: `tool:${toolCall.toolCallId}`,
      toolCall,
      interrupts: interruptsByToolCall.get(toolCall.toolCallId) ?? [],
    });
  }
  for (const interrupt of state.interrupts) {
    if (!interrupt.toolCallId || !toolCallIds.has(interrupt.toolCallId)) {
      place(interrupt.runId, interrupt.seq ?? Infinity, {
        kind: 'interrupt',
        key: `interrupt:${interrupt.id}`,
        interrupt,
      });
    }
  }
  for (const error of state.runErrors ?? []) {
    place(error.runId, Infinity, { kind: 'failure', key: `failure:${error.runId}`, error });
  }
  // `sort` is stable: items at the same place keep the order they were met in.
  return [...runs.values()].flatMap((items) => items.sort((a, b) => a.at - b.at).map(({ item }) => item));
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
