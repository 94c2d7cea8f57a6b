import type { AddInputResponse } from '../../core/protocol.ts';
import { isTerminalRunStatus } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import type { Route } from './route-context.ts';
import { respondIdempotently } from './route-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';
import { checkContentText, refuseUnsupportedContent } from '../operations/validate-content.ts';
import { requireOwnedRun } from '../operations/owned-resources.ts';

/**
 * `POST /runs/{runId}/inputs` (docs/protocol.md §13) under `Idempotency-Key`, looked up before the state
 * checks: `409 RUN_NOT_ACTIVE` once the run ended (or is cancelling), `409
 * RUN_NOT_ACCEPTING_INPUT` while it awaits an answer, `429 INPUT_LIMIT` past `maxInputsPerRun`.
 * On acceptance the user echo (`TEXT_MESSAGE_START{role:'user', inputId}`, `_CONTENT`, `_END`) is
 * appended in one write step; `202 {inputId, messageId, eventSeq}` carries the echo's last seq.
 * After the key lookup (a replay is free) each attempt counts against `inputsPerMinute`, and the
 * echo must fit `maxEventBytes` (docs/protocol.md §16).
 */
export const addInputRoute: Route = {
  method: 'POST',
  template: '/runs/{runId}/inputs',
  rate: 'inputsPerMinute',
  handle: async (request, context) => {
    const entry = await requireOwnedRun(request, context);
    return respondIdempotently(request, context, {
      routeTemplate: '/runs/{runId}/inputs',
      execute: async (complete) => {
        const { limits } = context;
        await enforceRateLimit({
          limiter: context.rateLimiter,
          limits,
          identityId: request.identityId,
          limit: 'inputsPerMinute',
        });
        const body = parseContractBody('AddInputRequest', request.body, {
          limits,
          onViolation: refuseUnsupportedContent,
        });
        const { text } = checkContentText(body.content, limits);
        const { clientMessageId } = body;
        const inputId = context.ids('inp');
        const messageId = context.ids('msg');
        const runId = entry.record.runId;
        const messageIdAnswer = (eventSeq: number): AddInputResponse => ({ inputId, messageId, eventSeq });
        const appended = await entry.record.transact(
          (s) => {
            if (isTerminalRunStatus(s.status) || s.status === 'cancelling') {
              return fail({
                code: 'RUN_NOT_ACTIVE',
                detail: 'The run has ended; send this as a new message.',
                runId,
                details: { status: s.status },
              });
            }
            if (s.status === 'awaiting_input') {
              return fail({ code: 'RUN_NOT_ACCEPTING_INPUT', detail: 'Answer the open request first.', runId });
            }
            if (s.inputs.length >= limits.maxInputsPerRun) {
              return fail({
                code: 'INPUT_LIMIT',
                detail: `A run accepts at most ${limits.maxInputsPerRun} inputs.`,
                runId,
                details: { limit: 'maxInputsPerRun', maxInputsPerRun: limits.maxInputsPerRun },
              });
            }
            return [
              {
                type: 'TEXT_MESSAGE_START',
                data: {
                  messageId,
                  role: 'user',
                  inputId,
                  ...(clientMessageId === undefined ? {} : { clientMessageId }),
                },
              },
              { type: 'TEXT_MESSAGE_CONTENT', data: { messageId, delta: text } },
              { type: 'TEXT_MESSAGE_END', data: { messageId, finishReason: 'stop' } },
            ];
          },
          { maxEventBytes: limits.maxEventBytes, field: 'content' },
          (s) => complete({ status: 202, body: messageIdAnswer(s.lastSeq + 3), headers: {} }),
        );
        const last = appended[appended.length - 1];
        if (last === undefined)
          return fail({ code: 'RUN_NOT_ACTIVE', detail: 'The run has ended; send this as a new message.', runId });
        return { status: 202, body: messageIdAnswer(last.seq), headers: {} };
      },
    });
  },
};
