import { isTerminalRunStatus, type ClientState } from '../../core/index.ts';
import { buildTranscriptItems } from './build-transcript-items.ts';

/**
 * Whether the user waits on a turn that shows nothing of its answer yet: a send the server has not
 * answered, or an active run whose last row is the user's own message (no reasoning, text, tool
 * or approval yet; also after a reload that lands in that gap). The widget shows a working row then.
 */
export function isAwaitingAnswer(state: ClientState): boolean {
  if (state.pendingSend?.status === 'sending') return true;
  const { run } = state;
  const last = state.messages.at(-1);
  if (run === null || isTerminalRunStatus(run.status) || last?.role !== 'user' || last.runId !== run.runId)
    return false;
  const lastItem = buildTranscriptItems(state).at(-1);
  return lastItem?.kind === 'message' && lastItem.message === last;
}
