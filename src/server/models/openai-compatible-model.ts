import type { ReasoningEffort } from '../../core/protocol.ts';
import type { AiSdkLanguageModel } from './ai-sdk-model.ts';
import { fromAiSdk } from './ai-sdk-model.ts';
import type { ModelAdapter, ModelChunk, ModelRequest } from './model-adapter.ts';

/** Options of {@link createOpenAiCompatibleModel}. */
export interface OpenAiCompatibleModelOptions {
  /** The API base, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** The provider's model name. */
  model: string;
  apiKey?: string;
  fetch?: typeof fetch;
  /** Epoch ms, for HTTP-date `Retry-After` values. */
  now?: () => number;
  /** Which body field carries `maxOutputTokens` (default `max_tokens`). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * The reasoning efforts the model takes as `reasoning_effort` (e.g. `['low', 'medium', 'high']`
   * for OpenAI's o-series). Default none: no request carries `reasoning_effort`.
   */
  reasoningOptions?: readonly ReasoningEffort[];
}

/** The provider name given to the AI SDK: its requests' user agent and its `provider` (`openai-compatible.chat`). */
const PROVIDER_NAME = 'openai-compatible';

/**
 * Creates a model over an OpenAI-compatible Chat Completions endpoint (OpenAI, DeepSeek, Ollama,
 * vLLM, …): `@ai-sdk/openai-compatible`'s chat model, wrapped by {@link fromAiSdk}, so it streams,
 * fails and retries like every other AI SDK model (text and refusal deltas, `reasoning_content`,
 * tool calls, usage from `stream_options.include_usage`; 408, 429, 5xx, network failures and a
 * cut stream are retryable, Retry-After honoured). `apiKey` is sent as a Bearer token when given.
 * The request's effort goes out as `reasoning_effort`, only for efforts `options.reasoningOptions`
 * lists. The package is loaded on the first call, so importing `agent-chat/server` stays light.
 *
 * What the SDK alone would lose, kept here (the recorded streams of `fixtures/` prove both):
 * - the earlier tool calls' arguments go back byte for byte as the model wrote them
 *   (`toolArgumentsAsText`), not parsed and re-serialised;
 * - `maxTokensField: 'max_completion_tokens'`, which the SDK's chat model has no setting for,
 *   renames the field in the request body.
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): ModelAdapter {
  let loaded: Promise<ModelAdapter> | undefined;
  const load = async (): Promise<ModelAdapter> => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const provider = createOpenAICompatible({
      name: PROVIDER_NAME,
      baseURL: options.baseUrl,
      includeUsage: true,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.maxTokensField === 'max_completion_tokens' ? { transformRequestBody: toMaxCompletionTokens } : {}),
    });
    const model: AiSdkLanguageModel = provider.chatModel(options.model);
    return fromAiSdk(model, {
      toolArgumentsAsText: true,
      // Only efforts the model declares reach this (the loop filters by `reasoningOptions`).
      reasoningOptions: (effort) => ({ openaiCompatible: { reasoningEffort: effort } }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  };
  return {
    id: options.model,
    reasoningOptions: [...(options.reasoningOptions ?? [])],
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
      loaded ??= load();
      const adapter = await loaded;
      yield* adapter.stream(request, signal);
    },
  };
}

/** Sends `maxOutputTokens` as `max_completion_tokens` (OpenAI's o-series refuse `max_tokens`). */
function toMaxCompletionTokens(body: Record<string, unknown>): Record<string, unknown> {
  const { max_tokens: maxTokens, ...rest } = body;
  return maxTokens === undefined ? rest : { ...rest, max_completion_tokens: maxTokens };
}
