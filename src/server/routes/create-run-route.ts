import type { CreateRunRequest, CreateRunResponse, ModelInfo } from '../../core/protocol.ts';
import type { StoredResponse } from '../storage/storage-port.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { validateCreateRun } from '../operations/create-run.ts';
import type { Route } from './route-context.ts';
import { respondIdempotently, toIso } from './route-context.ts';
import { resolveAttachedFiles, validateAttachmentIds } from './attach-files.ts';
import { enforceBalance, resolveRefs } from '../operations/send-context-hooks.ts';

/**
 * `POST /runs` (docs/protocol.md §5.2): creates a run (and a session) under `Idempotency-Key`. The
 * key is looked up first, so a replay never counts against `runsPerMinute`; every other attempt
 * does, valid or not (§16.1). After validation the attached files are looked up (§5.8) and the
 * product's `checkBalance` and `resolveContextRefs` run (docs/server.md, "Context"), still before
 * anything is created; the files then belong to the run's session.
 */
export const createRunRoute: Route = {
  method: 'POST',
  template: '/runs',
  rate: 'runsPerMinute',
  createsRun: true,
  handle: (request, context) =>
    respondIdempotently(request, context, {
      routeTemplate: '/runs',
      execute: async (complete) => {
        await enforceRateLimit({
          limiter: context.rateLimiter,
          limits: context.limits,
          identityId: request.identityId,
          limit: 'runsPerMinute',
        });
        const input = validateCreateRun(request, context);
        const attachmentIds = validateAttachmentIds(
          // validateCreateRun has checked the body against CreateRunRequest (attachments apart).
          (request.body as CreateRunRequest).input.attachments,
          context.attachments,
        );
        const files =
          attachmentIds === undefined || context.attachments === null
            ? null
            : await resolveAttachedFiles({
                files: context.attachments,
                ids: attachmentIds,
                subjectId: request.subject.id,
                sessionId: input.sessionId,
                model: context.models.find((model) => model.modelId === input.options.modelId) as ModelInfo,
              });
        await enforceBalance(context.sendHooks, request.subject);
        const resolved = await resolveRefs(context.sendHooks, request.subject, input.input.contextRefs);
        const attachments = [...(resolved ?? []), ...(files?.texts ?? [])];
        if (attachments.length > 0) input.input.attachments = attachments;
        if (files !== null) input.input.files = files.refs;
        let response: StoredResponse | null = null;
        const { entry } = await context.store.createRun(input, (created) => {
          const runUrl = `${context.apiBase}/runs/${created.runId}`;
          const body: CreateRunResponse = {
            runId: created.runId,
            sessionId: created.sessionId,
            status: 'queued',
            lastSeq: 1,
            resumeCursor: '1',
            eventsUrl: `${runUrl}/events`,
            userMessageId: created.userMessageId,
            createdAt: toIso(created.createdAt),
          };
          response = { status: 201, body, headers: { Location: runUrl } };
          return complete(response);
        });
        request.runSlot?.holdUntilEnd(entry.record);
        if (files !== null) await context.attachments?.bind(files.stored, entry.record.sessionId);
        if (response === null) throw new Error('createRun committed without its response');
        return response;
      },
    }),
};
