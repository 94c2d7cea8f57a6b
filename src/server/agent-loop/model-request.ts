import type { TokenUsage } from '../../core/protocol.ts';
import type { ModelMessage, ModelRequest } from '../models/model-adapter.ts';
import { costOfUsage, formatUsd, parseUsd } from './cost.ts';
import type { RunContext } from './engine-options.ts';
import { fillText } from './engine-texts.ts';
import { fitContext } from './fit-context.ts';
import { stopWithError } from './loop-stop.ts';
import { countRequestChars } from './token-estimate.ts';

/** A request ready for the model, with its size in characters (what its reported prompt tokens calibrate). */
export interface PreparedRequest {
  request: ModelRequest;
  chars: number;
}

/**
 * Builds the next model request of a run within its token budget (docs/agent-loop.md, "Context
 * budget"), then checks the cost limit against what the run spent plus what this call could cost.
 * Ends the run with `TOKEN_BUDGET_EXCEEDED` when the run's own messages do not fit, or
 * `COST_LIMIT_EXCEEDED` when the call could pass `maxCostUsd`. The first time the page context or
 * the attachments are cut, a `NOTICE{CONTEXT_TRUNCATED}` tells the user too.
 */
export async function prepareModelRequest(
  context: RunContext,
  messages: readonly ModelMessage[],
): Promise<PreparedRequest> {
  const { settings, handle } = context;
  const { limits } = settings;
  const tools = [...settings.registry.specs(), ...context.browserTools.specs()];
  const fit = fitContext(context.layers, messages, tools, {
    budget: limits.tokenBudget,
    tokensPerChar: context.tokensPerChar,
    focusShare: limits.focusShare,
    attachmentsShare: limits.attachmentsShare,
  });
  if (fit.kind === 'over_budget') {
    throw stopWithError(
      'TOKEN_BUDGET_EXCEEDED',
      fillText(context.texts.tokenBudget, { tokens: fit.tokens, limit: limits.tokenBudget }),
      false,
    );
  }
  checkCostLimit(context, fit.tokens);
  const cuts = [
    fit.focusCut === null
      ? null
      : `the page context (${fit.focusCut.keptChars} of ${fit.focusCut.totalChars} characters)`,
    fit.attachmentsCut === null
      ? null
      : `the attachments (${fit.attachmentsCut.keptChars} of ${fit.attachmentsCut.totalChars} characters)`,
  ].filter((cut) => cut !== null);
  if (cuts.length > 0 && !context.isCutNoticed) {
    context.isCutNoticed = true;
    await context.writer.append('NOTICE', {
      level: 'info',
      code: 'CONTEXT_TRUNCATED',
      message: `To fit the agent's context, it was given only part of ${cuts.join(' and ')}.`,
    });
  }
  // Only a model that declares the effort gets it; the handler's `models` are what the UI offers.
  const asked = handle.options.reasoningEffort;
  const effort = asked !== undefined && settings.model.reasoningOptions?.includes(asked) ? asked : undefined;
  const request: ModelRequest = {
    messages: fit.messages,
    tools,
    conversation: { sessionId: handle.sessionId, runId: handle.runId },
    ...(effort === undefined ? {} : { reasoningEffort: effort }),
  };
  return { request, chars: countRequestChars(fit.messages, tools) };
}

/** Calibrates the run's (and its session's) characters per token from a call's reported prompt tokens. */
export function recordPromptTokens(context: RunContext, prepared: PreparedRequest, usage: TokenUsage | null): void {
  if (usage === null) return;
  const key = calibrationKey(context);
  context.settings.calibration.record(key, prepared.chars, usage.inputTokens);
  context.tokensPerChar = context.settings.calibration.tokensPerChar(key);
}

/** The calibration key of a run: its model and session. */
export function calibrationKey(context: Pick<RunContext, 'settings' | 'handle'>): string {
  return `${context.settings.model.id}|${context.handle.sessionId}`;
}

/** The run's cost so far as a decimal string, when its model has a price and it has used any tokens. */
export function costSoFar(context: RunContext): string | undefined {
  const price = context.settings.prices.get(context.settings.model.id);
  return price === undefined || context.usage === null ? undefined : formatUsd(costOfUsage(context.usage, price));
}

function checkCostLimit(context: RunContext, inputTokens: number): void {
  const { settings, handle } = context;
  const maxCostUsd = handle.options.limits?.maxCostUsd;
  if (maxCostUsd === undefined) return;
  const price = settings.prices.get(settings.model.id);
  if (price === undefined) {
    throw stopWithError(
      'COST_LIMIT_EXCEEDED',
      'This model has no price on this server, so a cost limit cannot be kept; the run was stopped before calling it.',
      false,
    );
  }
  const spent = context.usage === null ? 0n : costOfUsage(context.usage, price);
  const next = costOfUsage({ inputTokens, outputTokens: settings.limits.projectedOutputTokens }, price);
  if (spent + next > parseUsd(maxCostUsd)) {
    throw stopWithError(
      'COST_LIMIT_EXCEEDED',
      `The next step could cost more than this run's limit of $${maxCostUsd} (spent so far: $${formatUsd(spent)}), so the run was stopped.`,
      false,
    );
  }
}
