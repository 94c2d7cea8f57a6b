import type { RunSnapshot, SnapshotToolCall, ToolResultStatus } from '../../core/protocol.ts';
import type { Deadline } from './create-deadline.ts';
import type { RunContext } from './engine-options.ts';
import { LoopStop } from './loop-stop.ts';
import { readEvidence } from './tool-evidence.ts';

/** How a browser call ended, for the loop (the model gets `content`). */
export interface BrowserCallResult {
  status: Extract<ToolResultStatus, 'completed' | 'failed' | 'cancelled' | 'unknown' | 'expired'>;
  content: string;
  truncated: boolean;
  /** True when its `TOOL_CALL_RESULT` is already in the log (a deadline decided it). */
  isLogged?: boolean;
}

const NOT_STARTED = 'No browser ran the tool before its deadline, so it was not run.';
const NOT_CONFIRMED = 'The browser did not confirm what the tool did before its deadline; its outcome is unknown.';
const NEEDS_RECONCILIATION = 'The browser could not confirm what the tool did; its outcome is unknown.';

/**
 * Lets a governed browser call out and waits for its executor (docs/protocol.md §19):
 * appends `TOOL_CALL_DISPATCHED` with `RUN_STATUS_CHANGED{awaiting_tool}`, pauses the round
 * deadline, and waits until the claim holder's final receipt or report is in the log, or
 * `browserToolTimeoutMs` passes (then `expired` if it never started, else `unknown`). The HTTP
 * layer writes claims and receipts. On a stop the executor gets `toolStopGraceMs` to confirm;
 * a confirmed outcome is logged as the call's result before the stop goes on, else the
 * finalizer closes the call (`cancelled` when never started, `unknown` otherwise).
 */
export async function awaitBrowserResult(
  context: RunContext,
  options: {
    toolCallId: string;
    signal: AbortSignal;
    deadline: Deadline;
    /** The call's dispatch already in the log (a resumed run): it is waited for until its `expiresAt`, not dispatched again. */
    dispatched?: { expiresAt: string };
  },
): Promise<BrowserCallResult> {
  const { settings, writer, handle } = context;
  const { toolCallId, signal, deadline } = options;
  const now = settings.clock.now();
  const expiresAt = options.dispatched?.expiresAt ?? new Date(now + settings.limits.browserToolTimeoutMs).toISOString();
  const timeoutMs = Math.max(0, Date.parse(expiresAt) - now);
  const dispatched = await writer.transact((s) => {
    if (s.status === 'cancelling') return [];
    const waiting = { type: 'RUN_STATUS_CHANGED', data: { status: 'awaiting_tool', reason: 'browser_tool' } } as const;
    if (options.dispatched !== undefined) return s.status === 'awaiting_tool' ? [] : [waiting];
    return [{ type: 'TOOL_CALL_DISPATCHED', data: { toolCallId, executorKind: 'browser', expiresAt } }, waiting];
  });
  if (dispatched.length === 0 && (options.dispatched === undefined || handle.snapshot().status === 'cancelling')) {
    throw new LoopStop({ kind: 'cancel' });
  }
  deadline.pause();
  const isSettled = (s: RunSnapshot): boolean => settledCall(s, toolCallId) !== undefined;
  const timeout = new AbortController();
  const timer = settings.clock.setTimeout(() => timeout.abort(), timeoutMs);
  let snapshot: RunSnapshot;
  try {
    snapshot = await handle.waitFor(isSettled, AbortSignal.any([signal, timeout.signal]));
  } catch (error) {
    if (signal.aborted) {
      await confirmStop(context, { toolCallId, isSettled });
      throw signal.reason;
    }
    if (!timeout.signal.aborted) throw error;
    snapshot = handle.snapshot();
  } finally {
    settings.clock.clearTimeout(timer);
  }
  let result = resultOf(findCall(snapshot, toolCallId));
  await writer.transact((s) => {
    // Decided in the same write step as a receipt could be applied, so a late one never contradicts it.
    result = resultOf(findCall(s, toolCallId));
    const resumed =
      s.status === 'cancelling' ? [] : [{ type: 'RUN_STATUS_CHANGED', data: { status: 'running' } } as const];
    if (isSettled(s)) return resumed;
    result = { ...result, isLogged: true };
    const { status, content } = result;
    return [
      {
        type: 'TOOL_CALL_RESULT',
        // How the call was governed goes with the result the deadline decided, as with any other.
        data: { toolCallId, messageId: settings.ids('msg'), content, status, ...readEvidence(context, toolCallId) },
      },
      ...resumed,
    ];
  });
  deadline.resume();
  return result;
}

/** After a stop: waits the grace period for the executor's outcome and logs it as the result if it came. */
async function confirmStop(
  context: RunContext,
  options: { toolCallId: string; isSettled: (s: RunSnapshot) => boolean },
): Promise<void> {
  const { settings, handle, writer } = context;
  const grace = new AbortController();
  const timer = settings.clock.setTimeout(() => grace.abort(), settings.limits.toolStopGraceMs);
  try {
    const snapshot = await handle.waitFor(options.isSettled, grace.signal).catch(() => handle.snapshot());
    const call = settledCall(snapshot, options.toolCallId);
    const outcome = call?.executor?.outcome;
    if (call === undefined || call.result !== undefined || outcome === undefined) return;
    await writer.append('TOOL_CALL_RESULT', {
      toolCallId: options.toolCallId,
      messageId: settings.ids('msg'),
      content: outcome.content,
      status: outcome.kind,
      ...(outcome.truncated === true ? { truncated: true } : {}),
    });
  } finally {
    settings.clock.clearTimeout(timer);
  }
}

function findCall(snapshot: RunSnapshot, toolCallId: string): SnapshotToolCall | undefined {
  return snapshot.toolCalls.find((call) => call.toolCallId === toolCallId);
}

/** The call once its executor settled it (an outcome or a reconciliation report) or something else ended it. */
function settledCall(snapshot: RunSnapshot, toolCallId: string): SnapshotToolCall | undefined {
  const call = findCall(snapshot, toolCallId);
  const executor = call?.executor;
  const isSettled =
    call?.result !== undefined ||
    executor?.outcome !== undefined ||
    (executor?.reconciliation === 'required' && executor.acceptedAt !== undefined);
  return isSettled ? call : undefined;
}

function resultOf(call: SnapshotToolCall | undefined): BrowserCallResult {
  const executor = call?.executor;
  const outcome = executor?.outcome;
  if (outcome !== undefined) {
    return { status: outcome.kind, content: outcome.content, truncated: outcome.truncated === true };
  }
  if (executor?.acceptedAt === undefined) return { status: 'expired', content: NOT_STARTED, truncated: false };
  const content = executor.reconciliation === 'required' ? NEEDS_RECONCILIATION : NOT_CONFIRMED;
  return { status: 'unknown', content, truncated: false };
}
