import type { ReasoningEffort } from '../../core/protocol.ts';
import { parseSseStream } from '../../core/sse/parse-sse-stream.ts';
import { parseRetryAfter } from '../../core/transport/parse-retry-after.ts';
import type { ModelAdapter, ModelChunk, ModelFinishReason, ModelMessage, ModelRequest } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';
import { createToolNameCodec } from './tool-name-codec.ts';

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

/**
 * Creates a model over an OpenAI-compatible Chat Completions endpoint (OpenAI, DeepSeek, Ollama,
 * vLLM, …), streaming: text deltas (a `refusal` delta counts as text), `reasoning_content` deltas,
 * streamed `tool_calls` (an empty `id` or `name` fragment is left out), usage
 * (`stream_options.include_usage`, or the running total some providers repeat in every chunk) and
 * the finish reason. 429, 408, 5xx, network failures and a
 * stream cut before its end are retryable `ModelError`s (Retry-After honoured); other 4xx are
 * fatal. Provider text only ever lands in `ModelError.providerMessage`. Tool names the API
 * forbids (`orders.lookup`) are encoded for the provider and decoded back. The request's effort
 * goes out as `reasoning_effort`; the loop sets one only when `options.reasoningOptions` lists it.
 * A user message's attached images go as `image_url` content parts (`data:` URLs).
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): ModelAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    id: options.model,
    reasoningOptions: [...(options.reasoningOptions ?? [])],
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
      const names = createToolNameCodec(request);
      const body: Record<string, unknown> = {
        model: options.model,
        messages: request.messages.map((message) => toProviderMessage(message, names.encode)),
        stream: true,
        stream_options: { include_usage: true },
      };
      if (request.tools.length > 0) {
        body['tools'] = request.tools.map((tool) => ({
          type: 'function',
          function: { name: names.encode(tool.name), description: tool.description, parameters: tool.parameters },
        }));
      }
      if (request.reasoningEffort !== undefined) body['reasoning_effort'] = request.reasoningEffort;
      if (request.maxOutputTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = request.maxOutputTokens;

      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        signal.throwIfAborted();
        throw new ModelError('The model service could not be reached.', {
          retryable: true,
          providerMessage: String(error),
        });
      }
      if (!response.ok || response.body === null) throw await toHttpError(response, now());

      let finish: ModelFinishReason | undefined;
      let isDone = false;
      try {
        for await (const frame of parseSseStream(response.body, { signal })) {
          if (frame.data === '[DONE]') {
            isDone = true;
            break;
          }
          const chunk = parseJson(frame.data);
          if (chunk === undefined) continue;
          if (isRecord(chunk['error'])) {
            throw new ModelError('The model service reported an error.', {
              retryable: true,
              providerMessage: JSON.stringify(chunk['error']),
            });
          }
          yield* readChunk(chunk, names.decode, (reason) => {
            finish = reason;
          });
        }
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof ModelError) throw error;
        throw new ModelError('The connection to the model service broke.', {
          retryable: true,
          providerMessage: String(error),
        });
      }
      if (finish === undefined) {
        throw new ModelError('The connection to the model service broke.', {
          retryable: true,
          providerMessage: isDone ? '[DONE] without finish_reason' : 'stream ended early',
        });
      }
      yield { type: 'finish', reason: finish };
    },
  };
}

function* readChunk(
  chunk: Record<string, unknown>,
  decode: (name: string) => string,
  onFinish: (reason: ModelFinishReason) => void,
): Generator<ModelChunk> {
  const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
  const choice: unknown = choices[0];
  if (isRecord(choice)) {
    const delta = isRecord(choice['delta']) ? choice['delta'] : {};
    const reasoning = delta['reasoning_content'] ?? delta['reasoning'];
    if (typeof reasoning === 'string' && reasoning !== '') yield { type: 'reasoning', delta: reasoning };
    if (typeof delta['content'] === 'string' && delta['content'] !== '')
      yield { type: 'text', delta: delta['content'] };
    // OpenAI streams a refusal in its own field instead of content: it is the answer the user gets.
    if (typeof delta['refusal'] === 'string' && delta['refusal'] !== '')
      yield { type: 'text', delta: delta['refusal'] };
    const toolCalls = Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : [];
    for (const call of toolCalls) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call['function']) ? call['function'] : {};
      yield {
        type: 'tool_call_delta',
        index: typeof call['index'] === 'number' ? call['index'] : 0,
        ...(isNonEmptyString(call['id']) ? { id: call['id'] } : {}),
        ...(isNonEmptyString(fn['name']) ? { name: decode(fn['name']) } : {}),
        ...(typeof fn['arguments'] === 'string' ? { argumentsDelta: fn['arguments'] } : {}),
      };
    }
    if (typeof choice['finish_reason'] === 'string') onFinish(toFinishReason(choice['finish_reason']));
  }
  const usage = chunk['usage'];
  if (isRecord(usage) && typeof usage['prompt_tokens'] === 'number') {
    const details = isRecord(usage['completion_tokens_details']) ? usage['completion_tokens_details'] : {};
    const reasoningTokens = details['reasoning_tokens'];
    yield {
      type: 'usage',
      usage: {
        ...(typeof chunk['model'] === 'string' ? { modelId: chunk['model'] } : {}),
        inputTokens: usage['prompt_tokens'],
        outputTokens: typeof usage['completion_tokens'] === 'number' ? usage['completion_tokens'] : 0,
        ...(typeof reasoningTokens === 'number' && reasoningTokens > 0 ? { reasoningTokens } : {}),
      },
    };
  }
}

function toProviderMessage(message: ModelMessage, encode: (name: string) => string): Record<string, unknown> {
  switch (message.role) {
    case 'assistant':
      return message.toolCalls === undefined || message.toolCalls.length === 0
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: message.content === '' ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: encode(call.name), arguments: call.arguments },
            })),
          };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'user':
      return message.images === undefined || message.images.length === 0
        ? { role: 'user', content: message.content }
        : {
            role: 'user',
            content: [
              { type: 'text', text: message.content },
              ...message.images.map((image) => ({
                type: 'image_url',
                image_url: { url: `data:${image.mediaType};base64,${image.base64}` },
              })),
            ],
          };
    default:
      return { role: message.role, content: message.content };
  }
}

async function toHttpError(response: Response, nowMs: number): Promise<ModelError> {
  const text = await response.text().catch(() => '');
  const status = response.status;
  const retryable = status === 429 || status === 408 || status >= 500;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), nowMs) ?? undefined;
  const message =
    status === 429
      ? 'The model service is busy (rate limited).'
      : retryable
        ? 'The model service had a temporary problem.'
        : 'The model service rejected the request.';
  return new ModelError(message, {
    retryable,
    status,
    providerMessage: text.slice(0, 2000),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function toFinishReason(reason: string): ModelFinishReason {
  if (reason === 'length' || reason === 'content_filter') return reason;
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  return 'stop';
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Providers fill fields they do not send with `""` (Qwen repeats `"id": ""` in every later fragment). */
function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
