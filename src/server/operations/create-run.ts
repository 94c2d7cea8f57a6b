import { ACCEPT_LANGUAGE_HEADER } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { readPreferredLocale } from '../locale/preferred-locale.ts';
import type { CreateRunInput } from '../runs/run-store.ts';
import type { HandlerContext, RequestContext } from './operation-context.ts';
import { validateBrowserTools } from './validate-browser-tools.ts';
import { checkContentText, refuseUnsupportedContent } from './validate-content.ts';
import { parseContractBody } from './request-body-validators.ts';

/**
 * Validates a `CreateRunRequest` body (its schema with the field limits of docs/protocol.md §16.2,
 * then what a schema cannot say: the message's total length, agent status and version, model) into what the store's `createRun` takes, or throws the problem. `POST /runs` validates its body
 * with it; the AG-UI endpoint builds such a body from a `RunAgentInput` (docs/ag-ui.md).
 */
export function validateCreateRun(request: RequestContext, context: HandlerContext): CreateRunInput {
  const { agent, models, limits } = context;
  const body = parseContractBody('CreateRunRequest', request.body, { limits, onViolation: refuseUnsupportedContent });
  const { agentVersionId, sessionId, retryOf, parentMessageId, options = {} } = body;
  if (retryOf !== undefined && sessionId === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'retryOf names a run of the session given in sessionId.',
      details: { field: 'sessionId' },
    });
  }
  if (typeof parentMessageId === 'string' && sessionId === undefined) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'parentMessageId names a message of the session given in sessionId.',
      details: { field: 'sessionId' },
    });
  }
  const { input } = body;
  const { content } = checkContentText(input.content, limits);
  const { clientMessageId, instruction } = input;
  const contextRefs = input.contextRefs?.map(({ ref, title, url }) => ({
    ref,
    ...(title === undefined ? {} : { title }),
    ...(url === undefined ? {} : { url }),
  }));
  // An empty focus title is no title; the engine may cut the text further to its token budget.
  const focus =
    input.focus === undefined
      ? undefined
      : { ...(input.focus.title ? { title: input.focus.title } : {}), text: input.focus.text };
  const { modelId, reasoningEffort } = options;
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
  const effort = reasoningEffort;
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
  const maxCostUsd = options.limits?.maxCostUsd;
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
