import type { Widget, WidgetActionResponse, WidgetValues } from '../../core/protocol.ts';
import {
  ACCEPT_LANGUAGE_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  REQUEST_ID_HEADER,
  WIDGET_LIMITS,
} from '../../core/protocol.ts';
import { DomainError } from '../domain-error.ts';
import { fail } from '../http/problem-error.ts';
import { jsonResponse } from '../http/respond.ts';
import { failInUse } from '../idempotency/idempotency-store.ts';
import { enforceRateLimit } from '../limits/rate-limits.ts';
import { readPreferredLocale } from '../locale/preferred-locale.ts';
import { IdempotencyLockLostError, type IdempotencyCompletion, type StoredResponse } from '../storage/storage-port.ts';
import { checkFormValues, findActionNode, type WidgetActionStart } from '../widgets/widget-action.ts';
import type { Route } from './route-context.ts';
import type { HandlerContext, RequestContext } from '../operations/operation-context.ts';
import { parseContractBody } from '../operations/request-body-validators.ts';

const TEMPLATE = '/runs/{runId}/widgets/{widgetId}/actions';

/**
 * `POST /runs/{runId}/widgets/{widgetId}/actions` (docs/protocol.md §11.2, docs/widgets.md
 * "Actions"): a button press or a form submit on a widget a run of the session showed. The action names the
 * digest of the widget as the user saw it; its natural key is that digest, so the same action
 * again (a double click, a retry) is answered from its record (`Idempotent-Replayed`) and applies
 * once, while any other answer to a widget that has moved on, or a digest that is not the
 * widget's latest, is `412 WIDGET_DIGEST_MISMATCH`. A run that is not the caller's, or a widget it
 * did not show, is `404 WIDGET_NOT_FOUND`; an action the widget does not offer, or values off its
 * form, `422`. An accepted action becomes a run of the session (`201`), which the engine's
 * `onWidgetAction` answers; while the session has an active run it is `409 RUN_ALREADY_ACTIVE`.
 * Counts against `runsPerMinute`.
 */
export const widgetActionRoute: Route = {
  method: 'POST',
  template: TEMPLATE,
  rate: 'runsPerMinute',
  createsRun: true,
  handle: async (request, context) => {
    await enforceRateLimit({
      limiter: context.rateLimiter,
      limits: context.limits,
      identityId: request.identityId,
      limit: 'runsPerMinute',
    });
    const widgetId = request.params.widgetId ?? '';
    const shown = await findLatestWidget(request, context, widgetId);
    const body = parseActionBody(request.body);
    const begun = await beginAction(request, context, { widgetId, ...body });
    if (begun.kind === 'replay') {
      return jsonResponse(begun.response.status, begun.response.body, {
        ...begun.response.headers,
        [IDEMPOTENT_REPLAYED_HEADER]: 'true',
        [REQUEST_ID_HEADER]: request.requestId,
      });
    }
    const stale = (): never =>
      fail({
        code: 'WIDGET_DIGEST_MISMATCH',
        detail: 'The widget changed since it was shown; reload it.',
        details: { digest: shown.widget.digest },
      });
    if (begun.kind === 'stale') return stale();
    let response: StoredResponse;
    try {
      if (body.digest !== shown.widget.digest) stale();
      const start = readAction(shown, body, widgetId);
      response = await createActionRun(request, context, { start, sessionId: shown.sessionId }, begun.completion);
    } catch (error) {
      if (error instanceof IdempotencyLockLostError) return failInUse();
      await begun.abandon();
      throw error;
    }
    return jsonResponse(response.status, response.body, {
      ...response.headers,
      [REQUEST_ID_HEADER]: request.requestId,
    });
  },
};

interface ShownWidget {
  widget: Widget;
  runId: string;
  sessionId: string;
}

/**
 * The widget as it is now: the latest `result.widget` with `widgetId` among the runs of the named
 * run's session, oldest first (an action run carries each update), so any run of the session may
 * be named. `404` when the run is not the caller's or its session never showed the widget.
 */
async function findLatestWidget(
  request: RequestContext,
  context: HandlerContext,
  widgetId: string,
): Promise<ShownWidget> {
  const notFound = (): never => fail({ code: 'WIDGET_NOT_FOUND', detail: 'No such widget in this run.' });
  const entry = await context.store.getRun(request.params.runId ?? '');
  if (entry === null || entry.subjectId !== request.subject.id) return notFound();
  const { runId, sessionId } = entry.record;
  const widgetIn = (calls: readonly { result?: { widget?: Widget } }[]): Widget | undefined =>
    calls.findLast((call) => call.result?.widget?.widgetId === widgetId)?.result?.widget;
  let latest: ShownWidget | null = null;
  for (const candidateId of await context.store.listSessionRunIds(sessionId)) {
    const candidate = candidateId === runId ? entry : await context.store.getRun(candidateId);
    const widget = candidate === null ? undefined : widgetIn((await candidate.record.refresh()).toolCalls);
    if (widget !== undefined) latest = { widget, runId: candidateId, sessionId };
  }
  return latest ?? notFound();
}

interface ActionBody {
  action: string;
  digest: string;
  values: WidgetValues;
}

function parseActionBody(raw: unknown): ActionBody {
  const { action, digest, values = {} } = parseContractBody('WidgetActionRequest', raw, {});
  return { action, digest, values };
}

type BegunAction =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'stale' }
  | {
      kind: 'started';
      completion: (response: StoredResponse) => IdempotencyCompletion;
      abandon: () => Promise<void>;
    };

/**
 * Looks the action up by its natural key (the caller, the widget and the digest it names): a
 * completed record of the same action is a replay; one of another action or values means the
 * widget has moved on (stale); otherwise this request now holds the key.
 */
async function beginAction(
  request: RequestContext,
  context: HandlerContext,
  action: ActionBody & { widgetId: string },
): Promise<BegunAction> {
  try {
    const begun = await context.idempotency.begin({
      scope: request.subject.id,
      method: 'POST',
      routeTemplate: TEMPLATE,
      key: `${action.widgetId}:${action.digest}`,
      body: { action: action.action, values: action.values },
      pathParams: {},
    });
    if (begun.kind === 'replay') return begun;
    return { kind: 'started', completion: begun.completion, abandon: begun.abandon };
  } catch (error) {
    if (error instanceof DomainError && error.init.code === 'IDEMPOTENCY_KEY_REUSED') return { kind: 'stale' };
    throw error;
  }
}

/** The action as its run keeps it, once the widget offers it and the values fit its form (else `422`). */
function readAction(shown: ShownWidget, body: ActionBody, widgetId: string): WidgetActionStart {
  const node = findActionNode(shown.widget.root, body.action);
  if (node === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'The widget offers no such action (or it was used already).',
      details: { field: 'action' },
    });
  }
  if (node.type === 'button' && Object.keys(body.values).length > 0) {
    return fail({ code: 'VALIDATION_FAILED', detail: 'A button sends no values.', details: { field: 'values' } });
  }
  if (node.type === 'form') {
    const problem = checkFormValues(node, body.values, WIDGET_LIMITS.maxTextChars);
    if (problem !== null)
      return fail({ code: 'VALIDATION_FAILED', detail: `${problem}.`, details: { field: 'values' } });
  }
  return {
    widgetId,
    action: body.action,
    values: body.values,
    widget: shown.widget,
    shownInRunId: shown.runId,
    label: node.type === 'button' ? node.label : node.submitLabel,
  };
}

async function createActionRun(
  request: RequestContext,
  context: HandlerContext,
  action: { start: WidgetActionStart; sessionId: string },
  completion: (response: StoredResponse) => IdempotencyCompletion,
): Promise<StoredResponse> {
  const session = await context.store.getSession(action.sessionId);
  if (session === null) return fail({ code: 'WIDGET_NOT_FOUND', detail: 'No such widget in this run.' });
  const model = context.models.find((m) => m.default === true) ?? context.models[0];
  const locale = readPreferredLocale(request.raw.headers.get(ACCEPT_LANGUAGE_HEADER));
  let response: StoredResponse | null = null;
  const { entry } = await context.store.createRun(
    {
      subject: request.subject,
      sessionId: session.sessionId,
      ...(locale === undefined ? {} : { locale }),
      agent: { agentId: context.agent.agentId, versionId: session.agentVersionId },
      model: model === undefined ? null : { modelId: model.modelId },
      input: { content: [{ type: 'text', text: action.start.label }], widgetAction: action.start },
      options: model === undefined ? {} : { modelId: model.modelId },
    },
    (created) => {
      const runUrl = `${context.apiBase}/runs/${created.runId}`;
      const body: WidgetActionResponse = {
        runId: created.runId,
        sessionId: created.sessionId,
        eventsUrl: `${runUrl}/events`,
      };
      response = { status: 201, body, headers: { Location: runUrl } };
      return completion(response);
    },
  );
  request.runSlot?.holdUntilEnd(entry.record);
  if (response === null) throw new Error('createRun committed without its response');
  return response;
}
