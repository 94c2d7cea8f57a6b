import type { ContextRef, CreateRunRequest, CreateRunResponse, ReasoningEffort } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import type { CreateRunInput } from '../runs/run-store.ts';
import type { HandlerContext, RequestContext, Route } from './route-context.ts';
import { requireObject, respondIdempotently, toIso } from './route-context.ts';
import { validateClientId, validateContent } from './validate-content.ts';

const EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

/** `POST /runs` (docs/protocol.md §5.2): creates a run (and a session) under `Idempotency-Key`. */
export const createRunRoute: Route = {
  method: 'POST',
  template: '/runs',
  handle: (request, context) =>
    respondIdempotently(request, context, {
      routeTemplate: '/runs',
      execute: async () => {
        const input = validateCreateRun(request, context);
        const { entry, session } = await context.store.createRun(input);
        const snapshot = entry.record.snapshot();
        const runUrl = `${context.apiBase}/runs/${snapshot.runId}`;
        const body: CreateRunResponse = {
          runId: snapshot.runId,
          sessionId: session.sessionId,
          status: 'queued',
          lastSeq: 1,
          resumeCursor: '1',
          eventsUrl: `${runUrl}/events`,
          userMessageId: entry.userMessageId,
          createdAt: toIso(entry.createdAt),
        };
        return { status: 201, body, headers: { Location: runUrl } };
      },
    }),
};

function validateCreateRun(request: RequestContext, context: HandlerContext): CreateRunInput {
  const body = requireObject(request.body, 'body') as Partial<Record<keyof CreateRunRequest, unknown>>;
  const { agent, models, limits } = context;
  if (typeof body.agentVersionId !== 'string') {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'agentVersionId is required.',
      details: { field: 'agentVersionId' },
    });
  }
  if (body.sessionId !== undefined && typeof body.sessionId !== 'string') {
    return fail({ code: 'VALIDATION_FAILED', detail: 'sessionId must be a string.', details: { field: 'sessionId' } });
  }
  const input = requireObject(body.input, 'input');
  const { content } = validateContent(input.content, limits.maxInputChars);
  const clientMessageId = validateClientId(input.clientMessageId, 'input.clientMessageId');
  const contextRefs = validateContextRefs(input.contextRefs);
  const options = body.options === undefined ? {} : requireObject(body.options, 'options');
  const { modelId, reasoningEffort } = options;
  if (modelId !== undefined && typeof modelId !== 'string') {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'options.modelId must be a string.',
      details: { field: 'options.modelId' },
    });
  }
  if (reasoningEffort !== undefined && !EFFORTS.includes(reasoningEffort as ReasoningEffort)) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'options.reasoningEffort must be low, medium or high.',
      details: { field: 'options.reasoningEffort' },
    });
  }
  if ((agent.status ?? 'active') !== 'active') {
    return fail({
      code: 'AGENT_UNAVAILABLE',
      status: 409,
      detail: 'The agent takes no new runs; history stays readable.',
    });
  }
  if (body.agentVersionId !== agent.versionId) {
    return fail({
      code: 'AGENT_VERSION_MISMATCH',
      detail: 'The agent version changed; bootstrap again.',
      details: { agentVersionId: agent.versionId },
    });
  }
  const model =
    modelId === undefined
      ? (models.find((m) => m.default === true) ?? models[0])
      : models.find((m) => m.modelId === modelId);
  if (model === undefined || !model.available) {
    return fail({
      code: 'MODEL_UNAVAILABLE',
      detail: 'That model is not available.',
      details: { modelId: modelId ?? null },
    });
  }
  const effort = reasoningEffort as ReasoningEffort | undefined;
  const rawLimits = options.limits === undefined ? undefined : requireObject(options.limits, 'options.limits');
  const maxCostUsd = rawLimits?.maxCostUsd;
  if (maxCostUsd !== undefined && (typeof maxCostUsd !== 'string' || !/^\d{1,12}(\.\d{1,12})?$/.test(maxCostUsd))) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'options.limits.maxCostUsd must be a decimal string.',
      details: { field: 'options.limits.maxCostUsd' },
    });
  }
  return {
    subject: request.subject,
    ...(body.sessionId === undefined ? {} : { sessionId: body.sessionId }),
    agent: { agentId: agent.agentId, versionId: agent.versionId },
    model: { modelId: model.modelId, ...(effort === undefined ? {} : { reasoningEffort: effort }) },
    input: {
      content,
      ...(clientMessageId === undefined ? {} : { clientMessageId }),
      ...(contextRefs === undefined ? {} : { contextRefs }),
    },
    options: {
      modelId: model.modelId,
      ...(effort === undefined ? {} : { reasoningEffort: effort }),
      ...(maxCostUsd === undefined ? {} : { limits: { maxCostUsd } }),
    },
  };
}

function validateContextRefs(value: unknown): ContextRef[] | undefined {
  if (value === undefined) return undefined;
  const invalid = (): never =>
    fail({
      code: 'VALIDATION_FAILED',
      detail: 'contextRefs must be [{ref, title?, url?}] of strings.',
      details: { field: 'input.contextRefs' },
    });
  if (!Array.isArray(value) || value.length > 20) return invalid();
  return (value as unknown[]).map((item) => {
    if (typeof item !== 'object' || item === null) return invalid();
    const { ref, title, url } = item as Record<string, unknown>;
    if (
      typeof ref !== 'string' ||
      ref === '' ||
      (title !== undefined && typeof title !== 'string') ||
      (url !== undefined && typeof url !== 'string')
    )
      return invalid();
    return {
      ref,
      ...(title === undefined ? {} : { title: title as string }),
      ...(url === undefined ? {} : { url: url as string }),
    };
  });
}
