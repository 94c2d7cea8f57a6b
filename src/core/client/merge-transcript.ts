import type { RunSnapshot, SnapshotInterrupt, SnapshotMessage, SnapshotToolCall } from '../protocol.ts';

/** The pieces a session's transcript is made of. */
export interface TranscriptParts {
  /** Settled messages of finished runs, oldest first (`GET /sessions/{id}/messages`, reversed). */
  history: readonly SnapshotMessage[];
  /** The tool calls of the settled history's runs (its pages carry them). */
  historyToolCalls: readonly SnapshotToolCall[];
  /** The interrupts of the settled history's runs (its pages carry them). */
  historyInterrupts: readonly SnapshotInterrupt[];
  /** The runs the client followed in this session, oldest first, each folded by the reducer. */
  runs: readonly RunSnapshot[];
  /** The user's message while its create is unanswered; dropped once a run echoes its id. */
  optimistic: SnapshotMessage | null;
  /** Messages retracted for a retry, in discard order, each put back where it stood in its run. */
  discarded?: readonly { runId: string; index: number; message: SnapshotMessage }[];
}

/** The transcript the UI renders. */
export interface Transcript {
  messages: SnapshotMessage[];
  toolCalls: SnapshotToolCall[];
  interrupts: SnapshotInterrupt[];
}

/**
 * Merges settled history and run snapshots by `messageId`: a run's message replaces the history
 * entry with the same id in place (so a run that settles between the history and snapshot reads
 * never shows twice), new ones are appended. Tool calls and interrupts are merged by id the same
 * way. Unchanged message objects keep their identity, so a renderer can compare references.
 */
export function mergeTranscript(parts: TranscriptParts): Transcript {
  const messages = mergeById(
    parts.history,
    parts.runs.map((run) => withDiscarded(run, parts.discarded ?? [])),
    (m) => m.messageId,
  );
  const { optimistic } = parts;
  if (optimistic !== null && !messages.some((m) => m.clientMessageId === optimistic.clientMessageId)) {
    messages.push(optimistic);
  }
  return {
    messages,
    toolCalls: mergeById(
      parts.historyToolCalls,
      parts.runs.map((run) => run.toolCalls),
      (c) => c.toolCallId,
    ),
    interrupts: mergeById(
      parts.historyInterrupts,
      parts.runs.map((run) => run.interrupts),
      (i) => i.id,
    ),
  };
}

/**
 * Merges `layers` into `base` by id: an item whose id is already there replaces it in place, a new
 * one is appended. Returns a new array; the inputs are not changed.
 */
export function mergeById<T>(base: readonly T[], layers: ReadonlyArray<readonly T[]>, idOf: (item: T) => string): T[] {
  const merged = base.slice();
  const indexById = new Map<string, number>();
  merged.forEach((item, index) => indexById.set(idOf(item), index));
  for (const layer of layers) {
    for (const item of layer) {
      const index = indexById.get(idOf(item));
      if (index === undefined) {
        indexById.set(idOf(item), merged.length);
        merged.push(item);
      } else {
        merged[index] = item;
      }
    }
  }
  return merged;
}

/** The run's messages with its retracted ones put back, the last retracted first, so each lands at its index again. */
function withDiscarded(
  run: RunSnapshot,
  discarded: NonNullable<TranscriptParts['discarded']>,
): readonly SnapshotMessage[] {
  const kept = discarded.filter((entry) => entry.runId === run.runId);
  if (kept.length === 0) return run.messages;
  const messages = run.messages.slice();
  for (const entry of kept.reverse()) messages.splice(entry.index, 0, entry.message);
  return messages;
}
