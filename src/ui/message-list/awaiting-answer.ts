import { isTerminalRunStatus, type ClientState } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import { formatExpiresIn } from '../approval-card/format-expires-in.ts';
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
  const isKept = (messageId: string): boolean => !state.discardedMessageIds.includes(messageId);
  // Checked first and cheaply: while an answer streams (every event) its text is the last kept message.
  const lastKept = state.messages.findLast((message) => isKept(message.messageId));
  if (lastKept?.role !== 'user' || lastKept.runId !== run.runId) return false;
  const lastItem = buildTranscriptItems(state).findLast(
    (item) => item.kind !== 'message' || isKept(item.message.messageId),
  );
  return lastItem?.kind === 'message' && lastItem.message === lastKept;
}

/**
 * What the working row says while the answer is awaited: "Reconnecting…" while the stream is
 * reopened (a stream silent past the heartbeat's promise is reopened); while the server tries the
 * model again (its latest `MODEL_RETRYING` notice: in the gap nothing of the answer shows, so it
 * is this wait's) "Retrying in 3 seconds…", then "Retrying now…" (no attempt number: those are the
 * server's tries, not the user's); else
 * "Thinking…". `isRetrying`: the label says when, so it changes each second.
 */
export function describeWait(
  state: ClientState,
  strings: AgentChatStrings,
  now: number,
  locale: string,
): { label: string; isRetrying: boolean } {
  // While a send is unanswered the followed run is still the previous one: its notices are not this wait's.
  const retry =
    state.pendingSend?.status === 'sending'
      ? undefined
      : state.notices.findLast((notice) => notice.code === 'MODEL_RETRYING');
  const label =
    state.connection === 'reconnecting'
      ? strings.reconnecting
      : retry === undefined
        ? strings.thinking
        : formatString(strings.retrying, { time: formatExpiresIn(retry.retryAt, now, locale) });
  return { label, isRetrying: retry !== undefined };
}
