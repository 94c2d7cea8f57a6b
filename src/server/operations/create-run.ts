import type { CreateRunRequest, ReasoningEffort } from '../../core/protocol.ts';
import { ACCEPT_LANGUAGE_HEADER, REASONING_EFFORTS } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { readPreferredLocale } from '../locale/preferred-locale.ts';
import type { CreateRunInput } from '../runs/run-store.ts';
import type { HandlerContext, RequestContext } from './operation-context.ts';
import { validateBrowserTools } from './validate-browser-tools.ts';
import { validateClientId, validateContent } from './validate-content.ts';
import { requireObject, validateContextRefs, validateOptionalString } from './validate-fields.ts';
import { validateFocus, validateInstruction } from './validate-send-context.ts';

/**
 * Validates a `CreateRunRequest` body (field limits of docs/protocol.md §16.2, agent status and
 * version, model) into what the store's `createRun` takes, or throws the problem. `POST /runs` validates its body
 * with it; the AG-UI endpoint builds such a body from a `RunAgentInput` (docs/ag-ui.md).
 */
export function validateCreateRun(request: RequestContext, context: HandlerContext): CreateRunInput {
  const body = requireObject(request.body, 'body') as Partial<Record<keyof CreateRunRequest, unknown>>;
  const { agent, models, limits } = context;
  const idLimit = { limit: 'maxIdChars', max: limits.maxIdChars } as const;
  const agentVersionId = validateOptionalString(body.agentVersionId, { field: 'agentVersionId', ...idLimit });
  if (agentVersionId === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'agentVersionId is required.',
      details: { field: 'agentVersionId' },
    });
  }
  const sessionId = validateOptionalString(body.sessionId, { field: 'sessionId', ...idLimit });
  const retryOf = validateOptionalString(body.retryOf, { field: 'retryOf', ...idLimit });
  if (retryOf !== undefined && sessionId === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'retryOf names a run of the session given in sessionId.',
      details: { field: 'sessionId' },
    });
  }
  const parentMessageId =
    body.parentMessageId === null
      ? null
      : validateOptionalString(body.parentMessageId, { field: 'parentMessageId', ...idLimit });
  if (typeof parentMessageId === 'string' && sessionId === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'parentMessageId names a message of the session given in sessionId.',
      details: { field: 'sessionId' },
    });
  }
  const input = requireObject(body.input, 'input');
  const { content } = validateContent(input.content, limits);
  const clientMessageId = validateClientId(input.clientMessageId, {
    field: 'input.clientMessageId',
    maxIdChars: limits.maxIdChars,
  });
  const contextRefs = validateContextRefs(input.contextRefs, limits);
  const instruction = validateInstruction(input.instruction, limits);
  const focus = validateFocus(input.focus, limits);
  const options = body.options === undefined ? {} : requireObject(body.options, 'options');
  const modelId = validateOptionalString(options.modelId, { field: 'options.modelId', ...idLimit });
  const { reasoningEffort } = options;
  if (reasoningEffort !== undefined && !REASONING_EFFORTS.includes(reasoningEffort as ReasoningEffort)) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `options.reasoningEffort must be one of ${REASONING_EFFORTS.join(', ')}.`,
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
  const isServed = agentVersionId === agent.versionId || (agent.servedVersionIds ?? []).includes(agentVersionId);
  // An earlier version serves the sessions pinned to it (the store checks the pin), never a new one.
  if (!isServed || (sessionId === undefined && agentVersionId !== agent.versionId)) {
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
  if (effort !== undefined && !(model.reasoningOptions ?? []).includes(effort)) {
    return fail({
      code: 'REASONING_EFFORT_UNSUPPORTED',
      detail: `The model ${model.modelId} does not offer the reasoning effort "${effort}".`,
      details: { field: 'options.reasoningEffort', reasoningOptions: model.reasoningOptions ?? [] },
    });
  }
  // Without browser tools turned on (no canUseExecutor) declarations are ignored, never stored.
  const browserTools =
    context.browserTools === null
      ? undefined
      : validateBrowserTools(body.browserTools, { limits: context.limits, schemas: context.browserTools.schemas });
  const rawLimits = options.limits === undefined ? undefined : requireObject(options.limits, 'options.limits');
  const maxCostUsd = rawLimits?.maxCostUsd;
  if (maxCostUsd !== undefined && (typeof maxCostUsd !== 'string' || !/^\d{1,12}(\.\d{1,12})?$/.test(maxCostUsd))) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'options.limits.maxCostUsd must be a decimal string.',
      details: { field: 'options.limits.maxCostUsd' },
    });
  }
  const locale = readPreferredLocale(request.raw.headers.get(ACCEPT_LANGUAGE_HEADER));
  return {
    subject: request.subject,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(retryOf === undefined ? {} : { retryOf }),
    ...(parentMessageId === undefined ? {} : { parentMessageId }),
    ...(locale === undefined ? {} : { locale }),
    agent: { agentId: agent.agentId, versionId: agentVersionId },
    model: { modelId: model.modelId, ...(effort === undefined ? {} : { reasoningEffort: effort }) },
    input: {
      content,
      ...(clientMessageId === undefined ? {} : { clientMessageId }),
      ...(contextRefs === undefined ? {} : { contextRefs }),
      ...(instruction === undefined ? {} : { instruction }),
      ...(focus === undefined ? {} : { focus }),
    },
    options: {
      modelId: model.modelId,
      ...(effort === undefined ? {} : { reasoningEffort: effort }),
      ...(maxCostUsd === undefined ? {} : { limits: { maxCostUsd } }),
    },
    ...(browserTools === undefined || browserTools.length === 0 ? {} : { browserTools }),
  };
}
