import type {
  ApprovalDecision,
  EventDataMap,
  ResolveInterruptResponse,
  SnapshotInterrupt,
} from '../../core/protocol.ts';
import { IDEMPOTENT_REPLAYED_HEADER, isTerminalRunStatus, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { DomainError } from '../domain-error.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { findResolutionSeq } from '../runs/live-runs.ts';
import type { RunEntry } from '../runs/run-store.ts';
import type { HandlerContext, Route } from './route-context.ts';
import { requireObject, requireOwnedRun } from './route-context.ts';
import { validateOptionalString } from './validate-fields.ts';

/**
 * `POST /runs/{runId}/interrupts/{interruptId}` (docs/protocol.md §11). Decides on the interrupt's own state:
 * `404 INTERRUPT_NOT_FOUND`; the same answer again → `200` + `Idempotent-Replayed`; another
 * answer → `409 INTERRUPT_ALREADY_RESOLVED` with the resolution; expired → `410`; cancelled with
 * its run → `409 RUN_NOT_ACTIVE`; a digest that is not the interrupt's → `412
 * ARGS_DIGEST_MISMATCH`; a `{response}` to a tool approval or a proposal → `422 VALIDATION_FAILED`
 * (`field: 'decision'`). Appends `INTERRUPT_RESOLVED{resolved, resolvedBy:'user'}` in one write
 * step and answers `200 {interrupt, eventSeq}`; the engine waits for that event itself. Every
 * answer counts against `interruptAnswersPerMinute`; a `{response}` must fit `maxEventBytes` once
 * stored (docs/protocol.md §16).
 */
export const resolveInterruptRoute: Route = {
  method: 'POST',
  template: '/runs/{runId}/interrupts/{interruptId}',
  rate: 'interruptAnswersPerMinute',
  handle: async (request, context) => {
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'interruptAnswersPerMinute',
    });
    const entry = await requireOwnedInterruptRun(request, context);
    const answer = parseInterruptAnswer(request.body, context);
    const resolved = await resolveInterrupt(entry, { interruptId: request.params.interruptId ?? '', answer }, context);
    const headers: Record<string, string> = { [REQUEST_ID_HEADER]: request.requestId };
    if (resolved.isReplayed) headers[IDEMPOTENT_REPLAYED_HEADER] = 'true';
    const response: ResolveInterruptResponse = { interrupt: resolved.interrupt, eventSeq: resolved.eventSeq };
    return jsonResponse(200, response, headers);
  },
};

/** An answer to an interrupt: an approval decision, or the `{response}` to an input request. */
export type InterruptAnswer =
  { decision: ApprovalDecision; argsDigest: unknown; editedArgs: unknown } | { response: unknown };

/**
 * Applies one answer to an interrupt of `entry`'s run under the rules of docs/protocol.md §11 (the
 * interrupt's own state decides; the same answer again is a replay; a digest that is not the
 * interrupt's is `412`), appending `INTERRUPT_RESOLVED` in one write step. Shared by this route
 * and the AG-UI resume (docs/ag-ui.md).
 */
export async function resolveInterrupt(
  entry: RunEntry,
  request: { interruptId: string; answer: InterruptAnswer },
  context: HandlerContext,
): Promise<{ interrupt: SnapshotInterrupt; eventSeq: number; isReplayed: boolean }> {
  const { interruptId, answer } = request;
  const runId = entry.record.runId;
  let replayed: SnapshotInterrupt | null = null;
  const appended = await entry.record.transact(
    (s) => {
      const interrupt = s.interrupts.find((i) => i.id === interruptId);
      if (interrupt === undefined)
        return fail({ code: 'INTERRUPT_NOT_FOUND', detail: 'No such interrupt in this run.', runId });
      const decision = 'decision' in answer ? answer.decision : undefined;
      if (interrupt.state === 'resolved') {
        if (interrupt.decision === decision) {
          replayed = interrupt;
          return [];
        }
        return fail({
          code: 'INTERRUPT_ALREADY_RESOLVED',
          detail: 'Another answer was given first.',
          runId,
          details: { interrupt },
          extra: { interrupt },
        });
      }
      if (interrupt.state === 'expired')
        return fail({
          code: 'INTERRUPT_EXPIRED',
          detail: 'The request expired and was denied.',
          runId,
          extra: { interrupt },
        });
      if (interrupt.state === 'cancelled' || isTerminalRunStatus(s.status)) {
        return fail({
          code: 'RUN_NOT_ACTIVE',
          detail: 'The run ended before an answer.',
          runId,
          extra: { interrupt },
        });
      }
      if (interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= context.clock.now()) {
        return fail({
          code: 'INTERRUPT_EXPIRED',
          detail: 'The request expired and was denied.',
          runId,
          extra: { interrupt },
        });
      }
      const data: EventDataMap['INTERRUPT_RESOLVED'] = { interruptId, status: 'resolved', resolvedBy: 'user' };
      if ('decision' in answer) {
        if (interrupt.argsDigest !== undefined && answer.argsDigest !== interrupt.argsDigest) {
          return fail({
            code: 'ARGS_DIGEST_MISMATCH',
            detail: 'The arguments are not the ones shown; reload the request.',
            runId,
            details: { argsDigest: interrupt.argsDigest },
          });
        }
        data.decision = answer.decision;
      } else {
        // A tool approval and a proposal are decided (allow/deny of what was shown), never answered.
        if (interrupt.reason === 'tool_call' || interrupt.reason === 'proposal') {
          return fail({
            code: 'VALIDATION_FAILED',
            detail: `A ${interrupt.reason === 'proposal' ? 'proposal' : 'tool approval'} needs {decision, argsDigest}.`,
            runId,
            details: { field: 'decision' },
          });
        }
        data.response = answer.response;
      }
      return [{ type: 'INTERRUPT_RESOLVED', data }];
    },
    { maxEventBytes: context.limits.maxEventBytes, field: 'response' },
  );
  const snapshot = await entry.record.refresh();
  const interrupt = snapshot.interrupts.find((i) => i.id === interruptId) as SnapshotInterrupt;
  // A replay on a run that ended meanwhile may meet its stored record, which knows no resolutions: the log does.
  const eventSeq =
    appended[0]?.seq ??
    entry.record.resolutionSeq(interruptId) ??
    (await findResolutionSeq(context.storage, runId, interruptId)) ??
    snapshot.lastSeq;
  return { interrupt, eventSeq, isReplayed: replayed !== null };
}

/** The caller's run, else `404 INTERRUPT_NOT_FOUND` (§11: also for another user's run, never 403). */
async function requireOwnedInterruptRun(
  request: Parameters<Route['handle']>[0],
  context: HandlerContext,
): ReturnType<typeof requireOwnedRun> {
  try {
    return await requireOwnedRun(request, context);
  } catch (error) {
    if (error instanceof DomainError && error.init.code === 'NOT_FOUND')
      return fail({ code: 'INTERRUPT_NOT_FOUND', detail: 'No such interrupt in this run.' });
    throw error;
  }
}

/** Reads a `{decision, argsDigest, reason?}` or `{response}` body (field limits of docs/protocol.md §16.2), or throws `422`. */
export function parseInterruptAnswer(value: unknown, context: HandlerContext): InterruptAnswer {
  const body = requireObject(value, 'body');
  if ('response' in body && !('decision' in body)) return { response: body.response };
  const { decision, argsDigest, editedArgs, reason } = body;
  if (decision !== 'allow' && decision !== 'deny') {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'decision must be "allow" or "deny" (or send {response}).',
      details: { field: 'decision' },
    });
  }
  const { maxIdChars, maxReasonChars } = context.limits;
  validateOptionalString(argsDigest, { field: 'argsDigest', limit: 'maxIdChars', max: maxIdChars });
  validateOptionalString(reason, { field: 'reason', limit: 'maxReasonChars', max: maxReasonChars });
  if (editedArgs !== undefined && !context.capabilities.approvals.approveWithEdits) {
    return fail({
      code: 'EDITED_ARGS_INVALID',
      detail: 'This agent does not accept edited arguments.',
      details: { field: 'editedArgs' },
    });
  }
  return { decision, argsDigest, editedArgs };
}
