import type { ClaimToolCallResponse } from '../protocol.ts';
import { isAgentError } from '../transport/agent-error.ts';
import type { FinalReceipt, ToolReceipt } from './receipt-store.ts';
import type { HandlerOutcome } from './run-handler.ts';
import { runHandler } from './run-handler.ts';
import type { RunnerContext } from './runner-context.ts';
import { claimCall, reportReconciliation, sendReceipt } from './runner-requests.ts';
import type { BrowserTool, BrowserToolCall } from './tool-runner-types.ts';

/**
 * Takes one browser call as far as this page can (docs/client.md, "Browser tools"), holding the
 * call's lock so no other page sharing the store drives it meanwhile (it then shows `elsewhere`):
 * claims it, and then by what its stored receipt says: nothing stored → store `claimed`, send
 * `accepted`, store `running`, run the handler, store the outcome as `final`, deliver it and
 * delete the receipt once the server acknowledged it; `claimed` → the same without storing
 * again; `final` → deliver it again (same receipt id); `running`/`unknown` (the handler may have
 * run) → never run it again: `reconcile`, or report that it needs reconciliation. Rejects only
 * with a delivery failure worth retrying later (the receipt stays stored).
 */
export async function driveBrowserCall(
  context: RunnerContext,
  call: BrowserToolCall,
  tool: BrowserTool,
): Promise<void> {
  const held = await context.store.withLock(`agent-chat-tool:${call.toolCallId}`, () => drive(context, call, tool));
  if (held === null) {
    context.setPhase(call.toolCallId, 'elsewhere');
    context.diagnose(call, 'elsewhere');
  }
}

async function drive(context: RunnerContext, call: BrowserToolCall, tool: BrowserTool): Promise<void> {
  const stored = await context.store.get(call.toolCallId);
  if (stored === undefined && !(await isAuthorized(context, call, 'execute'))) {
    context.setPhase(call.toolCallId, 'refused');
    context.diagnose(call, 'refused');
    return;
  }
  context.setPhase(call.toolCallId, 'claiming');
  const claim = await claimOrGiveUp(context, call, stored);
  if (claim === null) return;
  context.diagnose(call, claim.replayed ? 'replayed' : 'claimed');
  if (stored?.final !== undefined) return deliverFinal(context, { call, grant: claim.grant, receipt: stored });
  if (stored?.state === 'running' || stored?.state === 'unknown' || (stored === undefined && claim.isAccepted)) {
    return reconcileCall(context, { call, grant: claim.grant, stored, claim });
  }
  let receipt: ToolReceipt = stored ?? {
    ...call,
    state: 'claimed',
    sequence: 0,
    acceptedReceiptId: `rcp_${context.ids()}`,
    updatedAt: context.clock.now(),
  };
  // Atomic across the pages sharing the store: a page that loses this race never runs the handler.
  if (stored === undefined && !(await context.store.create(receipt))) {
    context.setPhase(call.toolCallId, 'elsewhere');
    return;
  }
  const accepted = await sendReceipt(context, call, claim.grant, {
    receiptId: receipt.acceptedReceiptId,
    sequence: 0,
    kind: 'accepted',
  });
  if (accepted.late === true || context.isRevoked()) {
    // The call ended before it started (its deadline, a Stop): the handler never runs.
    await context.store.delete(call.toolCallId);
    context.setPhase(call.toolCallId, 'done');
    context.diagnose(call, 'late');
    return;
  }
  receipt = { ...receipt, state: 'running', sequence: 1, updatedAt: context.clock.now() };
  await context.store.put(receipt);
  context.setPhase(call.toolCallId, 'running');
  context.diagnose(call, 'running');
  const controller = new AbortController();
  context.running.set(call.toolCallId, controller);
  if (accepted.cancelRequested === true) controller.abort('cancelled');
  const ran = await runHandler(context, { call, tool, receipt, grant: claim.grant, signal: controller.signal });
  context.running.delete(call.toolCallId);
  await settle(context, { call, grant: claim.grant, receipt: ran.receipt, outcome: ran.outcome });
}

/** Claims the call; null when this page leaves it (another executor has it, it ended, or it is refused). */
async function claimOrGiveUp(
  context: RunnerContext,
  call: BrowserToolCall,
  stored: ToolReceipt | undefined,
): Promise<ClaimToolCallResponse | null> {
  try {
    return await claimCall(context, call);
  } catch (error) {
    if (!isAgentError(error) || error.status === null || error.status >= 500 || error.status === 429) throw error;
    // Definitive: another executor holds it, it can no longer be claimed, or this executor may not.
    if (error.code === 'TOOL_CALL_ALREADY_CLAIMED') {
      context.setPhase(call.toolCallId, 'elsewhere');
      context.diagnose(call, 'elsewhere');
    } else {
      context.setPhase(call.toolCallId, error.code === 'FORBIDDEN' ? 'refused' : 'done');
      if (stored !== undefined) {
        await context.store.delete(call.toolCallId);
        context.diagnose(call, 'undeliverable');
      }
    }
    return null;
  }
}

/** Stores the handler's outcome (a final receipt, or `unknown`) and delivers or reports it. */
async function settle(
  context: RunnerContext,
  options: { call: BrowserToolCall; grant: string; receipt: ToolReceipt; outcome: HandlerOutcome },
): Promise<void> {
  const { call, grant, outcome } = options;
  if (outcome.kind === 'unknown') {
    await context.store.put({ ...options.receipt, state: 'unknown', updatedAt: context.clock.now() });
    if (!context.isRevoked()) await markNeedsReconciliation(context, call, grant);
    return;
  }
  const final: FinalReceipt = { receiptId: `rcp_${context.ids()}`, sequence: options.receipt.sequence, ...outcome };
  const receipt: ToolReceipt = { ...options.receipt, state: 'final', final, updatedAt: context.clock.now() };
  await context.store.put(receipt);
  // A revoked runner keeps the outcome stored: its identity's next runner delivers it.
  if (!context.isRevoked()) await deliverFinal(context, { call, grant, receipt });
}

/** Sends the stored final receipt (again); deletes it only once the server acknowledged it. */
async function deliverFinal(
  context: RunnerContext,
  options: { call: BrowserToolCall; grant: string; receipt: ToolReceipt },
): Promise<void> {
  const { call, grant, receipt } = options;
  const { final } = receipt;
  if (final === undefined) return;
  context.setPhase(call.toolCallId, 'delivering');
  const answer = await sendReceipt(context, call, grant, final);
  await context.store.delete(call.toolCallId);
  context.setPhase(call.toolCallId, 'done');
  context.diagnose(call, answer.late === true ? 'late' : 'delivered');
}

/** A call whose handler may have run: asks `reconcile` for its confirmed outcome, else reports it. */
async function reconcileCall(
  context: RunnerContext,
  options: { call: BrowserToolCall; grant: string; stored: ToolReceipt | undefined; claim: ClaimToolCallResponse },
): Promise<void> {
  const { call, grant, stored, claim } = options;
  context.setPhase(call.toolCallId, 'reconciling');
  context.diagnose(call, 'reconciling');
  const reconcile = context.options.reconcile;
  const confirmed =
    reconcile !== undefined && (await isAuthorized(context, call, 'reconcile'))
      ? await Promise.resolve()
          .then(() => reconcile(call))
          .catch(() => null)
      : null;
  if (confirmed === null || confirmed === undefined) return markNeedsReconciliation(context, call, grant);
  context.diagnose(call, 'reconciled');
  const sequence = Math.max(stored?.sequence ?? 0, claim.receiptSequence + 1);
  const receipt: ToolReceipt = {
    ...(stored ?? { ...call, acceptedReceiptId: `rcp_${context.ids()}` }),
    state: 'final',
    sequence,
    final: {
      receiptId: `rcp_${context.ids()}`,
      sequence,
      kind: confirmed.status,
      ...(confirmed.status === 'completed' ? { result: confirmed.result ?? null } : pickMessage(confirmed.message)),
    },
    updatedAt: context.clock.now(),
  };
  await context.store.put(receipt);
  await deliverFinal(context, { call, grant, receipt });
}

/** Reports the call as needing reconciliation and forgets its receipt once the server has the report. */
async function markNeedsReconciliation(context: RunnerContext, call: BrowserToolCall, grant: string): Promise<void> {
  context.setPhase(call.toolCallId, 'needs_reconciliation');
  context.diagnose(call, 'needs_reconciliation');
  await reportReconciliation(context, call, grant);
  await context.store.delete(call.toolCallId);
}

async function isAuthorized(
  context: RunnerContext,
  call: BrowserToolCall,
  phase: 'execute' | 'reconcile',
): Promise<boolean> {
  const authorize = context.options.authorize;
  if (authorize === undefined) return true;
  return (
    (await Promise.resolve()
      .then(() => authorize(call, phase))
      .catch(() => false)) === true
  );
}

function pickMessage(message: string | undefined): { message?: string } {
  return message === undefined ? {} : { message };
}
