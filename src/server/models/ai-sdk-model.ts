import type { ReasoningEffort, TokenUsage } from '../../core/protocol.ts';
import { REASONING_EFFORTS } from '../../core/protocol.ts';
import { toModelErrorFromStream, toModelErrorFromThrown } from './ai-sdk-errors.ts';
import type { AiSdkFunctionTool, AiSdkPromptMessage } from './ai-sdk-prompt.ts';
import { toAiSdkPrompt, toAiSdkTools } from './ai-sdk-prompt.ts';
import type { ModelAdapter, ModelChunk, ModelFinishReason, ModelRequest } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';
import { createToolNameCodec } from './tool-name-codec.ts';

/** A JSON value, as provider options hold them. */
export type AiSdkJsonValue =
  null | string | number | boolean | AiSdkJsonValue[] | { [key: string]: AiSdkJsonValue | undefined };

/** Provider options of one call, keyed by provider (`{ anthropic: { thinking: … } }`). */
export type AiSdkProviderOptions = Record<string, Record<string, AiSdkJsonValue | undefined>>;

/** What {@link fromAiSdk} passes to `doStream`: a subset of `LanguageModelV3CallOptions` / `V4`. */
export interface AiSdkCallOptions {
  prompt: AiSdkPromptMessage[];
  tools?: AiSdkFunctionTool[];
  toolChoice?: { type: 'auto' };
  maxOutputTokens?: number;
  abortSignal?: AbortSignal;
  providerOptions?: AiSdkProviderOptions;
  /** The V4 specification's own reasoning setting (V3 models get provider options instead). */
  reasoning?: ReasoningEffort;
}

/**
 * A language model as `@ai-sdk/provider` defines it: `LanguageModelV4` (its current specification)
 * or `LanguageModelV3` (the previous one; what the provider packages for Node 20 implement), e.g.
 * `anthropic('claude-sonnet-4-5')`, `google('gemini-2.5-flash')` or `openai.responses('gpt-5')`.
 * Only the members the adapter uses are named, so no AI SDK package is needed to type it.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v3' | 'v4';
  readonly provider: string;
  readonly modelId: string;
  doStream(options: AiSdkCallOptions): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/** Options of {@link fromAiSdk}. */
export interface FromAiSdkOptions {
  /**
   * The adapter's id, the key of its price in `prices` and the `modelId` bootstrap lists (default
   * the model's `modelId`; its label then names the provider too, e.g. `gpt-4o-mini (openai.responses)`).
   */
  id?: string;
  /**
   * The provider options a run's reasoning effort becomes on a V3 model (default: the mapping of
   * {@link reasoningProviderOptions} for Anthropic, Google and OpenAI; none for other providers).
   */
  reasoningOptions?: (effort: ReasoningEffort, model: AiSdkLanguageModel) => AiSdkProviderOptions | undefined;
  /** Provider options sent with every call (merged under the reasoning ones). */
  providerOptions?: AiSdkProviderOptions;
  /** Epoch ms, for HTTP-date `Retry-After` values. */
  now?: () => number;
  /**
   * Send earlier tool calls' arguments as the JSON text the model wrote instead of parsed values
   * (default false). Only for providers that pass a JSON string input through verbatim, like
   * `@ai-sdk/openai-compatible`: the model then gets its own bytes back.
   */
  toolArgumentsAsText?: boolean;
}

/** Thinking budgets in tokens per effort, for providers that take a budget rather than an effort. */
const THINKING_BUDGET: Record<ReasoningEffort, number> = {
  low: 1024,
  medium: 4096,
  high: 16_384,
  xhigh: 32_768,
  max: 65_536,
};

/**
 * The provider options each provider documents for a reasoning effort on a V3 model: OpenAI
 * (`provider` `openai.*`, `azure.*`) `{reasoningEffort, reasoningSummary: 'auto'}` so the summary
 * streams; Anthropic `thinking: {type: 'enabled', budgetTokens}`; Google
 * `thinkingConfig: {thinkingBudget, includeThoughts: true}`; budgets 1,024 (low) to 65,536 (max)
 * tokens. Undefined for any other provider.
 */
export function reasoningProviderOptions(
  effort: ReasoningEffort,
  model: Pick<AiSdkLanguageModel, 'provider'>,
): AiSdkProviderOptions | undefined {
  const family = model.provider.split('.')[0] ?? '';
  const budgetTokens = THINKING_BUDGET[effort];
  if (family === 'openai' || family === 'azure')
    return { [family]: { reasoningEffort: effort, reasoningSummary: 'auto' } };
  if (family === 'anthropic') return { anthropic: { thinking: { type: 'enabled', budgetTokens } } };
  if (family === 'google' || family === 'vertex')
    return { google: { thinkingConfig: { thinkingBudget: budgetTokens, includeThoughts: true } } };
  return undefined;
}

/**
 * Wraps an AI SDK language model as the loop's {@link ModelAdapter}, so any provider package
 * (`@ai-sdk/anthropic`, `@ai-sdk/google`, `@ai-sdk/openai`, Bedrock, Azure, …) can answer runs.
 * Streams text and reasoning deltas; gathers each tool call's input deltas and hands the loop the
 * provider's final call (provider-executed tools are left out: they are not the loop's); maps
 * finish reasons (an `error` or V4 `interrupted` finish is a retryable failure) and usage (input,
 * output, reasoning and cache-read tokens); turns thrown errors and `error` parts into
 * `ModelError`s, retryable or not (`ai-sdk-errors.ts`); aborts through the run's signal; and sends
 * the run's reasoning effort as V4's `reasoning` or as the provider's documented options (it
 * declares every effort then, and none for a V3 model of another provider without a mapping). Tool
 * names with dots are encoded for the provider and decoded back. Imports nothing from the AI SDK.
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: FromAiSdkOptions = {}): ModelAdapter {
  const now = options.now ?? Date.now;
  const reasoningOptions = options.reasoningOptions ?? reasoningProviderOptions;
  if (model.specificationVersion !== 'v3' && model.specificationVersion !== 'v4') {
    throw new TypeError(
      `fromAiSdk takes a LanguageModelV3 or V4 model; this one has specificationVersion "${String(model.specificationVersion)}".`,
    );
  }
  // It declares every effort when it can send one: a V4 model, a mapping of the product's, or a provider with a documented one.
  const takesEffort =
    model.specificationVersion === 'v4' ||
    options.reasoningOptions !== undefined ||
    reasoningProviderOptions('low', model) !== undefined;
  return {
    id: options.id ?? model.modelId,
    label: `${model.modelId} (${model.provider})`,
    reasoningOptions: takesEffort ? REASONING_EFFORTS : [],
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
      const names = createToolNameCodec(request);
      const effort = request.reasoningEffort;
      const isV4 = model.specificationVersion === 'v4';
      const reasoning = effort === undefined || isV4 ? undefined : reasoningOptions(effort, model);
      const providerOptions = mergeProviderOptions(options.providerOptions, reasoning);
      const tools = toAiSdkTools(request, names);
      const call: AiSdkCallOptions = {
        prompt: toAiSdkPrompt(request.messages, names, { argumentsAsText: options.toolArgumentsAsText === true }),
        abortSignal: signal,
        ...(tools.length === 0 ? {} : { tools, toolChoice: { type: 'auto' as const } }),
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        ...(providerOptions === undefined ? {} : { providerOptions }),
        ...(isV4 && effort !== undefined ? { reasoning: effort } : {}),
      };
      let reader: ReadableStreamDefaultReader<unknown>;
      try {
        reader = (await model.doStream(call)).stream.getReader();
      } catch (error) {
        signal.throwIfAborted();
        throw toModelErrorFromThrown(error, now());
      }
      const pending = new Map<string, { name: string; input: string }>();
      let hasToolCalls = false;
      let responseModelId: string | undefined;
      let finish: ModelFinishReason | undefined;
      let isDrained = false;
      try {
        for (;;) {
          let next: ReadableStreamReadResult<unknown>;
          try {
            next = await reader.read();
          } catch (error) {
            signal.throwIfAborted();
            throw toModelErrorFromThrown(error, now(), 'stream');
          }
          if (next.done) {
            isDrained = true;
            break;
          }
          const part = isRecord(next.value) ? next.value : {};
          switch (part['type']) {
            case 'text-delta':
              if (typeof part['delta'] === 'string' && part['delta'] !== '')
                yield { type: 'text', delta: part['delta'] };
              break;
            case 'reasoning-delta':
              if (typeof part['delta'] === 'string' && part['delta'] !== '')
                yield { type: 'reasoning', delta: part['delta'] };
              break;
            case 'tool-input-start':
              if (part['providerExecuted'] !== true)
                pending.set(String(part['id']), { name: String(part['toolName']), input: '' });
              break;
            case 'tool-input-delta': {
              const gathered = pending.get(String(part['id']));
              if (gathered !== undefined && typeof part['delta'] === 'string') gathered.input += part['delta'];
              break;
            }
            case 'tool-call': {
              const id = String(part['toolCallId']);
              const gathered = pending.get(id);
              pending.delete(id);
              if (part['providerExecuted'] === true) break;
              const input = typeof part['input'] === 'string' ? part['input'] : (gathered?.input ?? '');
              hasToolCalls = true;
              yield { type: 'tool_call', id, name: names.decode(String(part['toolName'])), arguments: input };
              break;
            }
            case 'response-metadata':
              // Azure's first chunk (its prompt filter results) names the model `""`: no name at all.
              if (typeof part['modelId'] === 'string' && part['modelId'] !== '') responseModelId = part['modelId'];
              break;
            case 'error':
              throw toModelErrorFromStream(part['error'], now());
            case 'finish': {
              // A call whose input streamed but whose final part never came still reaches the loop.
              for (const [id, gathered] of pending) {
                hasToolCalls = true;
                yield { type: 'tool_call', id, name: names.decode(gathered.name), arguments: gathered.input };
              }
              pending.clear();
              const usage = toTokenUsage(part['usage'], responseModelId);
              if (usage !== null) yield { type: 'usage', usage };
              finish = toFinishReason(part['finishReason'], hasToolCalls);
              break;
            }
            default:
              break;
          }
        }
      } catch (error) {
        signal.throwIfAborted();
        throw error;
      } finally {
        // Left early (an error part, a stop): cancelling the stream releases the provider's connection.
        if (isDrained) reader.releaseLock();
        else void reader.cancel().catch(() => undefined);
      }
      if (finish === undefined) {
        throw new ModelError('The connection to the model service broke.', {
          retryable: true,
          providerMessage: 'AI SDK stream ended without a finish part',
        });
      }
      yield { type: 'finish', reason: finish };
    },
  };
}

function mergeProviderOptions(
  base: AiSdkProviderOptions | undefined,
  extra: AiSdkProviderOptions | undefined,
): AiSdkProviderOptions | undefined {
  if (base === undefined) return extra;
  if (extra === undefined) return base;
  const merged: AiSdkProviderOptions = { ...base };
  for (const [provider, values] of Object.entries(extra)) merged[provider] = { ...base[provider], ...values };
  return merged;
}

/** V3/V4 finish reasons are `{unified, raw}` (a plain string is read the same way). */
function toFinishReason(reason: unknown, hasToolCalls: boolean): ModelFinishReason {
  const unified = isRecord(reason) ? reason['unified'] : reason;
  switch (unified) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_calls';
    case 'error':
    case 'interrupted':
      throw new ModelError('The connection to the model service broke.', {
        retryable: true,
        providerMessage: `AI SDK finish reason ${String(unified)} (${String(isRecord(reason) ? reason['raw'] : '')})`,
      });
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}

/** V3/V4 usage nests totals (`inputTokens.total`, `.cacheRead`, `outputTokens.reasoning`); flat numbers are read too. */
function toTokenUsage(usage: unknown, modelId: string | undefined): TokenUsage | null {
  if (!isRecord(usage)) return null;
  const input = usage['inputTokens'];
  const output = usage['outputTokens'];
  const inputTokens = isRecord(input) ? input['total'] : input;
  const outputTokens = isRecord(output) ? output['total'] : output;
  if (typeof inputTokens !== 'number' && typeof outputTokens !== 'number') return null;
  const reasoningTokens = isRecord(output) ? output['reasoning'] : usage['reasoningTokens'];
  const cachedInputTokens = isRecord(input) ? input['cacheRead'] : usage['cachedInputTokens'];
  return {
    ...(modelId === undefined ? {} : { modelId }),
    inputTokens: typeof inputTokens === 'number' ? inputTokens : 0,
    outputTokens: typeof outputTokens === 'number' ? outputTokens : 0,
    ...(typeof reasoningTokens === 'number' && reasoningTokens > 0 ? { reasoningTokens } : {}),
    ...(typeof cachedInputTokens === 'number' && cachedInputTokens > 0 ? { cachedInputTokens } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
