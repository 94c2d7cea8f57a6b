import type { Limits } from '../../core/protocol.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { emptyResponse, jsonResponse } from '../http/respond.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import type { Route } from './route-context.ts';
import { toSessionResource } from './session-routes.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';
import { refuseControlCharacters } from '../operations/validate-fields.ts';
import { showBranchThrough } from '../runs/show-branch.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';

/**
 * `PATCH /sessions/{sessionId}` `{title}` (docs/protocol.md §5.7): renames the caller's session and
 * answers `200` with it. Counts against `sessionChangesPerMinute`; another subject's session is
 * `404` like a missing one.
 */
export const renameSessionRoute: Route = {
  method: 'PATCH',
  template: '/sessions/{sessionId}',
  rate: 'sessionChangesPerMinute',
  handle: async (request, context) => {
    await countChange(request, context);
    const body = parseContractBody('RenameSessionRequest', request.body, { limits: context.limits });
    const title = normalizeTitle(body.title, context.limits);
    const outcome = await context.storage.updateSessionTitle({
      sessionId: request.params.sessionId ?? '',
      subjectId: request.subject.id,
      title,
    });
    if (outcome.kind !== 'updated') return failMissing();
    return jsonResponse(200, await toSessionResource(outcome.session, context), {
      [REQUEST_ID_HEADER]: request.requestId,
    });
  },
};

/**
 * `DELETE /sessions/{sessionId}`: deletes the caller's session with its runs, logs, messages and
 * attached files (no archive: afterwards it is `404`) and answers `204`. A session with a run not
 * yet ended is `409 RUN_ALREADY_ACTIVE` (with `activeRunId`) and nothing is deleted.
 */
export const deleteSessionRoute: Route = {
  method: 'DELETE',
  template: '/sessions/{sessionId}',
  rate: 'sessionChangesPerMinute',
  handle: async (request, context) => {
    await countChange(request, context);
    const outcome = await context.storage.deleteSession({
      sessionId: request.params.sessionId ?? '',
      subjectId: request.subject.id,
    });
    if (outcome.kind === 'not_found') return failMissing();
    if (outcome.kind === 'run_active') return failActive(outcome.activeRunId);
    await context.attachments?.deleteForSession(request.subject.id, request.params.sessionId ?? '');
    return emptyResponse(204, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/**
 * `POST /sessions/{sessionId}/branch` `{messageId}` (docs/protocol.md §5.7): the caller's session
 * shows the branch through the turn that user message starts, down to the turn made last below it,
 * and answers `200` with the session. Showing it again changes nothing. A session with a run not
 * yet ended is `409 RUN_ALREADY_ACTIVE`; a message that starts no turn of it is `422`.
 */
export const showBranchRoute: Route = {
  method: 'POST',
  template: '/sessions/{sessionId}/branch',
  rate: 'sessionChangesPerMinute',
  handle: async (request, context) => {
    await countChange(request, context);
    const { messageId } = parseContractBody('ShowBranchRequest', request.body, { limits: context.limits });
    const outcome = await showBranchThrough(context.storage, {
      sessionId: request.params.sessionId ?? '',
      subjectId: request.subject.id,
      messageId,
    });
    switch (outcome.kind) {
      case 'not_found':
        return failMissing();
      case 'not_a_turn':
        return fail({
          code: 'VALIDATION_FAILED',
          detail: 'messageId starts no turn of this conversation.',
          details: { field: 'messageId', reason: 'not_a_turn' },
        });
      case 'run_active':
        return failActive(outcome.activeRunId);
      case 'shown':
        return jsonResponse(200, await toSessionResource(outcome.session, context), {
          [REQUEST_ID_HEADER]: request.requestId,
        });
    }
  },
};

function failActive(activeRunId: string): never {
  return fail({
    code: 'RUN_ALREADY_ACTIVE',
    detail: 'The conversation has an answer in progress; stop it or wait for it to end first.',
    details: { activeRunId },
    extra: { activeRunId },
  });
}

function countChange(request: RequestContext, context: HandlerContext): Promise<void> {
  return enforceRateLimit({
    limiter: context.rateLimiter,
    limits: context.limits,
    identityId: request.identityId,
    limit: 'sessionChangesPerMinute',
  });
}

/**
 * A title is one line: whitespace runs become one space and the ends are trimmed; then it must be
 * 1 to `maxTitleChars` characters without control characters (`422 VALIDATION_FAILED`). The limit
 * applies to the title so made, which is why it is code and not the schema's.
 */
export function normalizeTitle(value: string, limits: Pick<Limits, 'maxTitleChars'>): string {
  const title = value.replace(/\s+/g, ' ').trim();
  if (title === '') {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'title must not be empty.',
      details: { field: 'title', reason: 'empty' },
    });
  }
  if (title.length > limits.maxTitleChars) {
    return failOverLimit({
      field: 'title',
      limit: 'maxTitleChars',
      max: limits.maxTitleChars,
      actual: title.length,
      detail: `A title may be at most ${limits.maxTitleChars} characters.`,
    });
  }
  // Whitespace runs, tab and line breaks among them, are already one space here.
  refuseControlCharacters(title, 'title');
  return title;
}

function failMissing(): never {
  return fail({ code: 'NOT_FOUND', detail: 'No such session.' });
}
