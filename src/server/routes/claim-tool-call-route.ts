import type { ClaimToolCallResponse } from '../../core/protocol.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import type { PendingEvent } from '../runs/run-handle.ts';
import { requireBrowserCall, requireExecutorAccess, requireLease, requireToolCallRun } from './browser-tool-access.ts';
import type { Route } from './route-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';

/**
 * `POST /runs/{runId}/tool-calls/{toolCallId}/claim` (docs/protocol.md §19.3): a connected executor
 * allowed by `canUseExecutor` claims a dispatched browser call of a tool it registered. The first
 * claim appends `TOOL_CALL_CLAIMED` (the grant's digest only) and answers the grant; a repeat by
 * the same executor answers the same grant with `replayed: true`; another executor's claim is
 * `409 TOOL_CALL_ALREADY_CLAIMED`, and a call that is not (or no longer) claimable `409
 * TOOL_CALL_NOT_CLAIMABLE` with its `status`. Every claim counts against `toolClaimsPerMinute`.
 */
export const claimToolCallRoute: Route = {
  method: 'POST',
  template: '/runs/{runId}/tool-calls/{toolCallId}/claim',
  rate: 'toolClaimsPerMinute',
  handle: async (request, context) => {
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'toolClaimsPerMinute',
    });
    const { executorId } = parseContractBody('ClaimToolCallRequest', request.body, { limits: context.limits });
    const runtime = await requireExecutorAccess(request, context, executorId);
    const lease = await requireLease(request, runtime, executorId);
    const entry = await requireToolCallRun(request, context, request.params.runId ?? '');
    const runId = entry.record.runId;
    const toolCallId = request.params.toolCallId ?? '';
    const grant = await runtime.grants.grantFor({ runId, toolCallId, executorId });
    const grantDigest = runtime.grants.digestOf(grant);
    let isReplayed = false;
    const appended = await entry.record.transact((s) => {
      const call = requireBrowserCall(s, toolCallId);
      const executor = call.executor ?? { kind: 'browser' };
      const refuse = (reason: string): never =>
        fail({
          code: 'TOOL_CALL_NOT_CLAIMABLE',
          detail: 'This tool call cannot be claimed now.',
          runId,
          details: { status: call.status, reason },
        });
      const claimed: PendingEvent = { type: 'TOOL_CALL_CLAIMED', data: { toolCallId, executorId, grantDigest } };
      if (executor.executorId === executorId) {
        // Also after the call ended: a reloaded page needs its grant to deliver a late receipt or report.
        isReplayed = true;
        // A new grant secret (a restart without `grantSecret`): the same executor's claim gets the new digest.
        return executor.grantDigest === grantDigest ? [] : [claimed];
      }
      if (call.result !== undefined || s.status === 'cancelling') return refuse('ended');
      if (executor.expiresAt === undefined) return refuse('not_dispatched');
      if (!lease.tools.includes(call.name)) return refuse('tool_not_registered');
      if (executor.executorId !== undefined)
        return fail({
          code: 'TOOL_CALL_ALREADY_CLAIMED',
          detail: 'Another browser or tab is running this tool call.',
          runId,
        });
      return [claimed];
    });
    const snapshot = entry.record.snapshot();
    const executor = requireBrowserCall(snapshot, toolCallId).executor;
    const response: ClaimToolCallResponse = {
      grant,
      replayed: isReplayed,
      isAccepted: executor?.acceptedAt !== undefined,
      receiptSequence: executor?.receiptSequence ?? -1,
      expiresAt: executor?.expiresAt ?? '',
      eventSeq: appended[0]?.seq ?? snapshot.lastSeq,
    };
    return jsonResponse(200, response, { [REQUEST_ID_HEADER]: request.requestId });
  },
};
