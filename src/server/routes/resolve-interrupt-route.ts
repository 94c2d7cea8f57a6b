import type { ResolveInterruptResponse } from '../../core/protocol.ts';
import { IDEMPOTENT_REPLAYED_HEADER, REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { DomainError } from '../domain-error.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { parseInterruptAnswer, resolveInterrupt } from '../operations/answer-interrupt.ts';
import type { Route } from './route-context.ts';
import type { HandlerContext } from '../operations/operation-context.ts';
import { requireOwnedRun } from '../operations/owned-resources.ts';

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
