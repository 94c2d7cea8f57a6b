import type { EventDataMap } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import {
  readGrant,
  requireBrowserCall,
  requireExecutorAccess,
  requireGrant,
  requireToolCallRun,
  toolAnswerResponse,
} from './browser-tool-access.ts';
import type { Route } from './route-context.ts';
import { capToolResult } from './cap-tool-result.ts';
import type { HandlerContext } from '../operations/operation-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';

const DEFAULT_MESSAGES = { failed: 'The tool failed.', cancelled: 'The tool was cancelled.' } as const;

/**
 * `POST /runs/{runId}/tool-calls/{toolCallId}/receipts` (docs/protocol.md §19.3): the claim
 * holder's receipts, with `X-Tool-Grant`. `accepted` first, then `progress`, then one final
 * (`completed`, `failed`, `cancelled`), each appended as `TOOL_CALL_RECEIPT` in one write step
 * with the checks: a receipt at or below the applied `sequence`, or the final's own `receiptId`
 * again, is acknowledged with `replayed` and nothing appended; any other receipt once the call
 * ended (a repeat included) is acknowledged `late` and not applied; a receipt out of order is `409
 * RECEIPT_OUT_OF_ORDER`; a caller that is not the claim holder `403 TOOL_GRANT_INVALID`. A
 * completed result is serialised and cut at `maxToolResultChars` (`truncated`). Every receipt
 * counts against `toolReceiptsPerMinute`.
 */
export const toolReceiptRoute: Route = {
  method: 'POST',
  template: '/runs/{runId}/tool-calls/{toolCallId}/receipts',
  rate: 'toolReceiptsPerMinute',
  handle: async (request, context) => {
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'toolReceiptsPerMinute',
    });
    const receipt = parseReceipt(request.body, context);
    const runtime = await requireExecutorAccess(request, context, receipt.executorId);
    const entry = await requireToolCallRun(request, context, request.params.runId ?? '');
    const toolCallId = request.params.toolCallId ?? '';
    const grant = readGrant(request);
    const answer: { late?: true; replayed?: true } = {};
    const appended = await entry.record.transact(
      (s) => {
        const call = requireBrowserCall(s, toolCallId);
        requireGrant(runtime, call, { executorId: receipt.executorId, grant });
        const executor = call.executor ?? { kind: 'browser' };
        const isOwnFinal = executor.outcome?.receiptId === receipt.receiptId;
        const hasEnded =
          call.result !== undefined || executor.outcome !== undefined || executor.reconciliation !== undefined;
        // A repeat of anything but the final itself after the end is late too: the executor must not start.
        if (isOwnFinal || receipt.sequence <= (executor.receiptSequence ?? -1)) answer.replayed = true;
        // A call the run is stopping never starts: it ends `cancelled`, truthfully never run.
        if ((hasEnded && !isOwnFinal) || (receipt.kind === 'accepted' && s.status === 'cancelling')) answer.late = true;
        if (answer.replayed === true || answer.late === true) return [];
        const isAccepted = executor.acceptedAt !== undefined;
        if ((receipt.kind === 'accepted') === isAccepted)
          return fail({
            code: 'RECEIPT_OUT_OF_ORDER',
            detail: isAccepted ? 'The call was already accepted.' : 'Send the accepted receipt first.',
            runId: s.runId,
            details: { receiptSequence: executor.receiptSequence ?? -1 },
          });
        const gateKey = `${s.runId}.${toolCallId}`;
        if (receipt.kind !== 'progress') runtime.progress.forget(gateKey);
        else if (runtime.progress.isTooSoon(gateKey, context.clock.now())) return [];
        return [{ type: 'TOOL_CALL_RECEIPT', data: { toolCallId, ...receipt } }];
      },
      { maxEventBytes: context.limits.maxEventBytes, field: 'result' },
    );
    return toolAnswerResponse(request, {
      answer,
      appended,
      isCancelling: entry.record.snapshot().status === 'cancelling',
    });
  },
};

/** The receipt as it is logged: validated fields only, a final's outcome as `content`. */
type ParsedReceipt = Omit<EventDataMap['TOOL_CALL_RECEIPT'], 'toolCallId'>;

function parseReceipt(value: unknown, context: HandlerContext): ParsedReceipt {
  const body = parseContractBody('ToolReceiptRequest', value, { limits: context.limits });
  const { executorId, receiptId, sequence, kind, message, fraction } = body;
  const receipt: ParsedReceipt = { executorId, receiptId, sequence, kind };
  if (receipt.kind === 'progress') {
    return {
      ...receipt,
      ...(message === undefined ? {} : { message }),
      ...(fraction === undefined ? {} : { fraction }),
    };
  }
  if (receipt.kind === 'accepted') return receipt;
  const outcome =
    receipt.kind === 'completed'
      ? capToolResult(body.result, context.limits)
      : { content: message ?? DEFAULT_MESSAGES[receipt.kind], truncated: false };
  return { ...receipt, content: outcome.content, ...(outcome.truncated ? { truncated: true } : {}) };
}
