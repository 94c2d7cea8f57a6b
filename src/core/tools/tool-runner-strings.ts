import type { ToolCallStatus } from '../protocol.ts';

/**
 * What the tool runner writes on a browser call's card (`state.toolRunner.notes`) in one language.
 * `here` and `elsewhere` hold `{status}`, filled with the call's status word.
 */
export interface ToolRunnerStrings {
  /** The call runs, or ran, in this page's browser, e.g. "{status} in this browser". */
  here: string;
  /** Another tab or browser took it. */
  elsewhere: string;
  /** Nobody has taken it yet. */
  waiting: string;
  /** Its outcome is not known and is never guessed (docs/protocol.md §19). */
  needsReconciliation: string;
  /** The status words `{status}` takes; a call in another status gets no note (the card says its status). */
  statuses: Readonly<Partial<Record<ToolCallStatus, string>>>;
}

/** The runner's English strings (the default). */
export const EN_TOOL_RUNNER_STRINGS: ToolRunnerStrings = {
  here: '{status} in this browser',
  elsewhere: '{status} in another tab or browser',
  waiting: 'Waiting for the browser',
  needsReconciliation: 'Needs reconciliation',
  statuses: {
    awaiting_executor: 'Starting',
    running: 'Running',
    completed: 'Completed',
    failed: 'Failed',
    cancelled: 'Cancelled',
  },
};
