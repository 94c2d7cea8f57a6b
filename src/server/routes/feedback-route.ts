import type { FeedbackResponse, MessageFeedback, SnapshotMessage } from '../../core/protocol.ts';
import { REQUEST_ID_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import type { StoredFeedback } from '../storage/storage-port.ts';
import type { Route } from './route-context.ts';
import { toIso } from './route-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';
import { refuseControlCharacters } from '../operations/validate-fields.ts';
import type { HandlerContext } from '../operations/operation-context.ts';
import { requireOwnedRun } from '../operations/owned-resources.ts';

/**
 * `POST /runs/{runId}/feedback` `{messageId, rating, comment?}` (docs/protocol.md §5.9): keeps the
 * caller's vote on one of the run's finished answers, replacing their earlier one, hands it to the
 * product's `onFeedback` and answers `200` with it. Counts against `feedbackPerMinute`; another
 * subject's run is `404`; a `messageId` that is not a finished answer of the run, a `rating` other
 * than `up`/`down`, a `comment` over `maxCommentChars` or with control characters (tab and line
 * breaks aside) is `422 VALIDATION_FAILED`.
 */
export const feedbackRoute: Route = {
  method: 'POST',
  template: '/runs/{runId}/feedback',
  rate: 'feedbackPerMinute',
  handle: async (request, context) => {
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'feedbackPerMinute',
    });
    const entry = await requireOwnedRun(request, context);
    const { rating, comment, messageId } = parseContractBody('FeedbackRequest', request.body, {
      limits: context.limits,
    });
    if (comment !== undefined) refuseControlCharacters(comment, 'comment');
    const snapshot = await entry.record.refresh();
    const answer = snapshot.messages.find(
      (message) => message.messageId === messageId && message.role === 'assistant' && message.status !== 'streaming',
    );
    if (answer === undefined) {
      return fail({
        code: 'VALIDATION_FAILED',
        detail: 'messageId must name a finished answer of this run.',
        details: { field: 'messageId' },
      });
    }
    const trimmed = comment?.trim();
    const feedback: StoredFeedback = {
      runId: snapshot.runId,
      messageId: answer.messageId,
      subjectId: request.subject.id,
      rating,
      comment: trimmed === undefined || trimmed === '' ? null : trimmed,
      updatedAt: context.clock.now(),
    };
    if (!(await context.storage.putFeedback(feedback))) return fail({ code: 'NOT_FOUND', detail: 'No such run.' });
    await tellProduct(context, feedback, snapshot.sessionId, request.subject);
    const response: FeedbackResponse = {
      runId: feedback.runId,
      messageId: feedback.messageId,
      ...toMessageFeedback(feedback),
      updatedAt: toIso(feedback.updatedAt),
    };
    return jsonResponse(200, response, { [REQUEST_ID_HEADER]: request.requestId });
  },
};

/** Hands a kept vote to the product's `onFeedback`; its failure goes to `onError`, the vote stays. */
async function tellProduct(
  context: HandlerContext,
  feedback: StoredFeedback,
  sessionId: string,
  subject: Parameters<NonNullable<HandlerContext['onFeedback']>>[0],
): Promise<void> {
  if (context.onFeedback === undefined) return;
  try {
    await context.onFeedback(subject, {
      sessionId,
      runId: feedback.runId,
      messageId: feedback.messageId,
      rating: feedback.rating,
      comment: feedback.comment,
    });
  } catch (error) {
    context.onError(error, { where: 'onFeedback', runId: feedback.runId });
  }
}

/** The wire form of a kept vote. */
export function toMessageFeedback(feedback: StoredFeedback): MessageFeedback {
  return { rating: feedback.rating, ...(feedback.comment === null ? {} : { comment: feedback.comment }) };
}

/**
 * Adds the caller's votes to the answers among `messages` (a run snapshot's or a history page's):
 * one `listFeedback` per run the messages come from.
 */
export async function withFeedback(
  messages: SnapshotMessage[],
  subjectId: string,
  context: Pick<HandlerContext, 'storage'>,
): Promise<SnapshotMessage[]> {
  const runIds = [
    ...new Set(
      messages.flatMap((message) =>
        message.role === 'assistant' && message.runId !== undefined ? [message.runId] : [],
      ),
    ),
  ];
  if (runIds.length === 0) return messages;
  const votes = new Map<string, StoredFeedback>();
  for (const lists of await Promise.all(runIds.map((runId) => context.storage.listFeedback(runId, subjectId)))) {
    for (const vote of lists) votes.set(vote.messageId, vote);
  }
  if (votes.size === 0) return messages;
  return messages.map((message) => {
    const vote = votes.get(message.messageId);
    return vote === undefined ? message : { ...message, feedback: toMessageFeedback(vote) };
  });
}
