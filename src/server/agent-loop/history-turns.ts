import type { AttachmentRef, SnapshotMessage, SnapshotToolCall, ToolResultStatus } from '../../core/protocol.ts';
import type { ModelMessage } from '../models/model-adapter.ts';
import type { SettledToolCall } from '../runs/run-handle.ts';
import type { ResumedToolCall } from './resume-plan.ts';
import { turnMessages } from './resume-plan.ts';
import { countMessageChars } from './token-estimate.ts';

/** One earlier run of the session as the model sees it again; trimming keeps or drops it whole. */
export interface HistoryTurn {
  runId: string;
  messages: ModelMessage[];
  /** What its messages cost in characters (`countMessageChars`). */
  chars: number;
}

const RESULT_STATUSES: readonly string[] = ['completed', 'failed', 'denied', 'cancelled', 'unknown'];

/**
 * Rebuilds the session's earlier runs for the model (docs/agent-loop.md, "History"): per run, its
 * user and assistant messages in order, each assistant message followed by the tool calls it
 * made (`parentMessageId`) and one tool message per call with its result, paired by the call's
 * id. A round of calls with no text of its own goes right after the round before it (or after
 * the run's first user message). Runs keep the order of their first message. User messages a run
 * never answered (it failed or was cancelled first) are left out, a run left empty with them: the
 * next send asks again or moves on, and the model never gets two user messages in a row for it.
 */
export function buildHistoryTurns(options: {
  messages: readonly SnapshotMessage[];
  toolCalls: readonly SettledToolCall[];
  maxResultChars: number;
}): HistoryTurn[] {
  const runIds: string[] = [];
  const messagesByRun = new Map<string, SnapshotMessage[]>();
  for (const message of options.messages) {
    const runId = message.runId ?? '';
    if (!messagesByRun.has(runId)) {
      runIds.push(runId);
      messagesByRun.set(runId, []);
    }
    messagesByRun.get(runId)?.push(message);
  }
  const callsByRun = new Map<string, SettledToolCall[]>();
  for (const call of options.toolCalls) callsByRun.set(call.runId, [...(callsByRun.get(call.runId) ?? []), call]);
  return runIds.flatMap((runId) => {
    const messages = rebuildRun(messagesByRun.get(runId) ?? [], callsByRun.get(runId) ?? [], options.maxResultChars);
    while (messages.at(-1)?.role === 'user') messages.pop();
    if (messages.length === 0) return [];
    return [{ runId, messages, chars: messages.reduce((sum, message) => sum + countMessageChars(message), 0) }];
  });
}

/** One run's messages with its tool rounds put back beside the text that announced them. */
function rebuildRun(
  messages: readonly SnapshotMessage[],
  calls: readonly SnapshotToolCall[],
  maxResultChars: number,
): ModelMessage[] {
  const rounds = groupRounds(calls);
  const output: ModelMessage[] = [];
  let next = 0;
  /** Emits the rounds without a text message of their own that come next in the log. */
  const emitUnannounced = (): void => {
    while (next < rounds.length && rounds[next]?.parentMessageId === undefined) {
      output.push(...turnMessages('', toResumed(rounds[next]?.calls ?? []), maxResultChars));
      next += 1;
    }
  };
  let hasUser = false;
  for (const message of messages) {
    if (message.role === 'user') {
      output.push({ role: 'user', content: `${message.content}${attachedNote(message.attachments)}` });
      if (!hasUser) emitUnannounced();
      hasUser = true;
      continue;
    }
    if (message.role !== 'assistant') continue;
    const index = rounds.findIndex((round, at) => at >= next && round.parentMessageId === message.messageId);
    if (index < 0) {
      output.push({ role: 'assistant', content: message.content });
      continue;
    }
    // Rounds skipped over belong before this one.
    for (; next < index; next += 1)
      output.push(...turnMessages('', toResumed(rounds[next]?.calls ?? []), maxResultChars));
    output.push(...turnMessages(message.content, toResumed(rounds[index]?.calls ?? []), maxResultChars));
    next = index + 1;
    emitUnannounced();
  }
  for (; next < rounds.length; next += 1)
    output.push(...turnMessages('', toResumed(rounds[next]?.calls ?? []), maxResultChars));
  return output;
}

/** Consecutive calls with the same parent message are one round of the loop. */
function groupRounds(
  calls: readonly SnapshotToolCall[],
): { parentMessageId: string | undefined; calls: SnapshotToolCall[] }[] {
  const rounds: { parentMessageId: string | undefined; calls: SnapshotToolCall[] }[] = [];
  for (const call of calls) {
    const last = rounds.at(-1);
    if (last !== undefined && last.parentMessageId === call.parentMessageId) last.calls.push(call);
    else rounds.push({ parentMessageId: call.parentMessageId, calls: [call] });
  }
  return rounds;
}

function toResumed(
  calls: readonly SnapshotToolCall[],
): Pick<ResumedToolCall, 'toolCallId' | 'name' | 'args' | 'result'>[] {
  return calls.map((call) => ({
    toolCallId: call.toolCallId,
    name: call.name,
    args: call.args ?? {},
    result: {
      status: RESULT_STATUSES.includes(call.status) ? (call.status as ToolResultStatus) : 'unknown',
      content: call.result?.content ?? 'The call has no recorded result.',
      truncated: call.result?.truncated === true,
    },
  }));
}

/** An earlier message's files, named for the model after its text (their contents went with that turn only). */
function attachedNote(files: readonly AttachmentRef[] | undefined): string {
  if (files === undefined || files.length === 0) return '';
  return `\n\n[Attached: ${files.map((file) => `${file.name} (${file.mediaType}, ${file.size} bytes)`).join(', ')}]`;
}
