import type { FinalReceiptKind } from '../protocol.ts';
import { BusinessCancelled, BusinessFailure } from './business-errors.ts';
import type { ToolReceipt } from './receipt-store.ts';
import type { RunnerContext } from './runner-context.ts';
import { sendReceipt } from './runner-requests.ts';
import type { BrowserTool, BrowserToolCall } from './tool-runner-types.ts';

/** How a handler ended: a confirmed outcome, or `unknown` (it threw something else). */
export type HandlerOutcome = { kind: FinalReceiptKind; result?: unknown; message?: string } | { kind: 'unknown' };

/**
 * Progress receipts go out at most this often (the latest held-back one when the time comes): a
 * little over the server's one a second, so network jitter does not make it drop one.
 */
const PROGRESS_INTERVAL_MS = 1_100;

/**
 * Runs the handler of a call whose `running` receipt is stored, with its signal and a progress
 * reporter: each progress that goes out is stored first (with its sequence), then sent (a failed
 * send is left to the next one, or to the final). Resolves with the outcome; never rejects.
 */
export async function runHandler(
  context: RunnerContext,
  options: { call: BrowserToolCall; tool: BrowserTool; receipt: ToolReceipt; grant: string; signal: AbortSignal },
): Promise<{ outcome: HandlerOutcome; receipt: ToolReceipt }> {
  const { call, tool, grant, signal } = options;
  let receipt = options.receipt;
  let held: { message?: string; fraction?: number } | null = null;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let timer: unknown = undefined;
  let writes: Promise<unknown> = Promise.resolve();
  let isDone = false;
  const flush = (): void => {
    timer = undefined;
    if (held === null || isDone) return;
    const progress = { ...held, receiptId: `rcp_${context.ids()}`, sequence: receipt.sequence };
    held = null;
    lastSentAt = context.clock.now();
    receipt = { ...receipt, sequence: receipt.sequence + 1, progress, updatedAt: lastSentAt };
    const stored = receipt;
    writes = writes
      .then(() => context.store.put(stored))
      .then(() => sendReceipt(context, call, grant, { ...progress, kind: 'progress' }))
      .then((answer) => {
        if (answer.cancelRequested === true) context.running.get(call.toolCallId)?.abort('cancelled');
      })
      .catch(() => undefined);
  };
  const progress = (message?: string, fraction?: number): void => {
    if (isDone) return;
    held = {
      ...(typeof message === 'string' ? { message: message.slice(0, 500) } : {}),
      ...(typeof fraction === 'number' && fraction >= 0 && fraction <= 1 ? { fraction } : {}),
    };
    const waited = context.clock.now() - lastSentAt;
    if (waited >= PROGRESS_INTERVAL_MS) flush();
    else timer ??= context.clock.setTimeout(flush, PROGRESS_INTERVAL_MS - waited);
  };
  let outcome: HandlerOutcome;
  try {
    const args = (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown>;
    const value: unknown = await tool.run(args, {
      toolCallId: call.toolCallId,
      argumentsDigest: call.argsDigest,
      signal,
      progress,
    });
    // As JSON carries it: a result JSON cannot represent throws here and counts as unknown.
    outcome = { kind: 'completed', result: JSON.parse(JSON.stringify(value ?? null)) as unknown };
  } catch (error) {
    outcome =
      error instanceof BusinessFailure
        ? { kind: 'failed', message: error.message }
        : error instanceof BusinessCancelled
          ? { kind: 'cancelled', message: error.message }
          : { kind: 'unknown' };
  } finally {
    isDone = true;
    if (timer !== undefined) context.clock.clearTimeout(timer);
  }
  await writes;
  return { outcome, receipt };
}
