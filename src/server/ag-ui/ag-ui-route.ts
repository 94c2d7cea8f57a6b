import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import type { Route } from '../routes/route-context.ts';
import { createAgUiThreads } from './ag-ui-threads.ts';
import { countResumeAnswers, readAgUiRunId, readRunAgentInput } from './read-run-agent-input.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { resumeAgUiThread, startAgUiTurn } from './start-ag-ui-segment.ts';
import type { StoredResponse } from '../storage/storage-port.ts';
import type { AgUiSegment } from './stream-ag-ui-segment.ts';
import { streamAgUiSegment } from './stream-ag-ui-segment.ts';

/** The AG-UI endpoint, relative to `{basePath}`: beside the protocol's `/v1`, not under it. */
export const AG_UI_PATH = '/ag-ui';

/**
 * `POST {basePath}/ag-ui` (docs/ag-ui.md, "Producer"): runs an AG-UI `RunAgentInput` through our
 * normal run path and streams the AG-UI events of that run, encoded by `@ag-ui/encoder`. The
 * AG-UI `runId` is the idempotency key: the same `runId` with the same body replays the same
 * AG-UI run from its start without running anything again, another body is `422
 * IDEMPOTENCY_KEY_REUSED`; a new turn's record is completed in the commit that creates its run (as
 * `POST /runs`), so a crash between the two cannot make a retry create a second run. A new turn counts against `runsPerMinute` (and `maxActiveRuns`), each
 * resume answer against `interruptAnswersPerMinute`; a replay counts against nothing. The CSRF
 * guard is the required `application/json` body (`X-Agent-Identity` is optional here, and checked
 * when sent).
 */
export const agUiRoute: Route = {
  method: 'POST',
  template: AG_UI_PATH,
  csrfGuard: 'json-body',
  rate: 'runsPerMinute',
  opensStream: true,
  createsRun: true,
  handle: async (request, context) => {
    const threads = createAgUiThreads(context.storage);
    const begun = await context.idempotency.begin({
      scope: request.subject.id,
      method: 'POST',
      routeTemplate: AG_UI_PATH,
      key: readAgUiRunId(request.body, context.limits),
      body: request.body,
      pathParams: {},
    });
    let segment: AgUiSegment;
    if (begun.kind === 'replay') {
      segment = begun.response.body as AgUiSegment;
      // A turn whose process stopped between its commit and binding its thread binds it on the retry.
      if ((await threads.sessionOf(request.subject.id, segment.threadId)) === undefined) {
        await threads.bind(request.subject.id, segment.threadId, segment.sessionId);
      }
    } else {
      try {
        await countRequest(request, context);
        const input = readRunAgentInput(request.body, context.limits);
        const asStored = (started: AgUiSegment): StoredResponse => ({ status: 200, body: started, headers: {} });
        if (input.resume.length > 0) {
          segment = await resumeAgUiThread(request, context, { input, threads });
          await begun.complete(asStored(segment));
        } else {
          segment = await startAgUiTurn(request, context, {
            input,
            threads,
            complete: (started) => begun.completion(asStored(started)),
          });
        }
      } catch (error) {
        await begun.abandon();
        throw error;
      }
    }
    return streamAgUiSegment(request, context, { segment, threads });
  },
};

/** A new turn counts against `runsPerMinute`, a resume once per answer against `interruptAnswersPerMinute`, before validation. */
async function countRequest(request: RequestContext, context: HandlerContext): Promise<void> {
  const answers = countResumeAnswers(request.body);
  const take = (limit: 'runsPerMinute' | 'interruptAnswersPerMinute'): Promise<void> =>
    enforceRateLimit({ limiter: context.rateLimiter, limits: context.limits, identityId: request.identityId, limit });
  if (answers === 0) await take('runsPerMinute');
  for (let answer = 0; answer < answers; answer += 1) await take('interruptAnswersPerMinute');
}
