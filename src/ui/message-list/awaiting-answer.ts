import { isTerminalRunStatus, type ClientState } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { buildTranscriptItems } from './build-transcript-items.ts';

/**
 * Whether the user waits on a turn that shows nothing of its answer yet: a send the server has not
 * answered, or an active run whose last row is the user's own message (no reasoning, text, tool
 * or approval yet; also after a reload that lands in that gap). A failed attempt's rows, kept faded
 * while the run retries, are not an answer. The widget shows a working row then.
 */
export function isAwaitingAnswer(state: ClientState): boolean {
  if (state.pendingSend?.status === 'sending') return true;
  const { run } = state;
  if (run === null || isTerminalRunStatus(run.status)) return false;
  const lastItem = buildTranscriptItems(state).findLast(
    (item) => item.kind !== 'message' || !state.discardedMessageIds.includes(item.message.messageId),
  );
  return lastItem?.kind === 'message' && lastItem.message.role === 'user' && lastItem.message.runId === run.runId;
}

/**
 * What the working row says while the answer is awaited: "Reconnecting…" while the stream is
 * reopened (a stream silent past the heartbeat's promise is reopened), else "Thinking…".
 */
export function describeWait(state: ClientState, strings: AgentChatStrings): string {
  return state.connection === 'reconnecting' ? strings.reconnecting : strings.thinking;
}
