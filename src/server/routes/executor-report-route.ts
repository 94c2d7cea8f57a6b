import { fail } from '../http/problem-error.ts';
import {
  readGrant,
  requireBrowserCall,
  requireGrant,
  requireToolCallRun,
  toolAnswerResponse,
} from './browser-tool-access.ts';
import { admitExecutor } from './executor-routes.ts';
import type { Route } from './route-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';

/**
 * `POST /executors/{executorId}/report` `{runId, toolCallId, code, message?}` with `X-Tool-Grant`:
 * a diagnostic of the claim holder. `reconciliation_required` on a started call appends
 * `TOOL_CALL_REPORTED`, after which the engine ends the call `unknown`; a repeat is `replayed`,
 * a call that already ended answers `late`.
 */
export const reportExecutorRoute: Route = {
  method: 'POST',
  template: '/executors/{executorId}/report',
  rate: 'executorRequestsPerMinute',
  handle: async (request, context) => {
    const { executorId, runtime } = await admitExecutor(request, context);
    const body = parseContractBody('ExecutorReportRequest', request.body, { limits: context.limits });
    const { code, message } = body;
    // Ids are looked up, not checked: one that is not a string finds no call (404).
    const runId = typeof body.runId === 'string' ? body.runId : '';
    const toolCallId = typeof body.toolCallId === 'string' ? body.toolCallId : '';
    const entry = await requireToolCallRun(request, context, runId);
    const grant = readGrant(request);
    const answer: { late?: true; replayed?: true } = {};
    const appended = await entry.record.transact((s) => {
      const call = requireBrowserCall(s, toolCallId);
      requireGrant(runtime, call, { executorId, grant });
      const executor = call.executor ?? { kind: 'browser' };
      if (executor.reconciliation !== undefined) answer.replayed = true;
      else if (call.result !== undefined || executor.outcome !== undefined) answer.late = true;
      else if (executor.acceptedAt === undefined)
        return fail({ code: 'RECEIPT_OUT_OF_ORDER', detail: 'The call never started.', runId: s.runId });
      if (answer.replayed === true || answer.late === true) return [];
      return [
        {
          type: 'TOOL_CALL_REPORTED',
          data: { toolCallId, executorId, code, ...(message === undefined ? {} : { message }) },
        },
      ];
    });
    return toolAnswerResponse(request, { answer, appended });
  },
};
