import type { RunAgentInput } from '@ag-ui/core';
import { PROTOCOL_VERSION as AG_UI_PROTOCOL_VERSION } from '@ag-ui/core';
import type { ModelAdapter, ModelChunk, ModelRequest } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-adapter.ts';
import { readAgUiEvents } from './read-ag-ui-events.ts';
import { toAgUiMessages } from './to-ag-ui-messages.ts';
import { createModelChunkMapper } from './to-model-chunks.ts';

/** Options of {@link createAgUiModel}. */
export interface AgUiModelOptions {
  /** The AG-UI agent's endpoint (it answers a POSTed `RunAgentInput` with an SSE stream). */
  url: string;
  /** Sent with every request (e.g. the agent's own credentials). Never taken from the browser. */
  headers?: Record<string, string>;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Mints the AG-UI `runId`s and our ids for what the agent ran itself. */
  ids: (prefix: string) => string;
  /** State and custom events whose JSON is longer are replaced by a `NOTICE`. Default 65 536. */
  maxEventBytes?: number;
  /** Results of tools the agent ran itself are cut to this many characters. Default 16 000. */
  maxResultChars?: number;
  /** Threads whose last AG-UI state is kept (least recently used forgotten). Default 10 000. */
  maxThreads?: number;
}

/**
 * An AG-UI agent as the agent loop's model (docs/ag-ui.md, "Consumer"): each model call is one
 * AG-UI run (`threadId` = our session, a fresh `runId`, the conversation as `messages`, the
 * loop's tools as `tools`, the thread's last state), its events mapped by
 * {@link createModelChunkMapper}. A refused request (429, 5xx) or a network failure before any
 * event is retryable like a provider's; anything after the first event is not, because the agent
 * may already have acted. An answer that is not `text/event-stream` (we ask for SSE, never
 * protobuf) and a stream that ends without `RUN_FINISHED` fail the call.
 */
export function createAgUiModel(options: AgUiModelOptions): ModelAdapter {
  const doFetch = options.fetch ?? fetch;
  const maxThreads = options.maxThreads ?? 10_000;
  const states = new Map<string, unknown>();
  const keepState = (threadId: string, state: unknown): void => {
    states.delete(threadId);
    if (state !== undefined) states.set(threadId, state);
    if (states.size > maxThreads) states.delete(states.keys().next().value as string);
  };

  return {
    id: 'ag-ui',
    label: 'AG-UI agent',
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
      const threadId = request.conversation?.sessionId ?? options.ids('thread');
      const state = states.get(threadId);
      const input: RunAgentInput = {
        threadId,
        runId: options.ids('run'),
        protocolVersion: AG_UI_PROTOCOL_VERSION,
        ...(state === undefined ? {} : { state }),
        messages: toAgUiMessages(request.messages),
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        })),
        context: [],
      };
      const response = await post(doFetch, options, input, signal);
      const mapper = createModelChunkMapper({
        ids: options.ids,
        state,
        maxEventBytes: options.maxEventBytes ?? 65_536,
        maxResultChars: options.maxResultChars ?? 16_000,
      });
      let hasEvents = false;
      try {
        for await (const event of readAgUiEvents(response.body as ReadableStream<Uint8Array>, signal)) {
          hasEvents = true;
          yield* mapper.map(event);
          if (mapper.isFinished()) break;
        }
      } catch (error) {
        if (signal.aborted || error instanceof ModelError) throw error;
        throw new ModelError('The connection to the agent broke off.', {
          retryable: !hasEvents,
          providerMessage: String(error),
        });
      } finally {
        keepState(threadId, mapper.state());
      }
      if (!mapper.isFinished()) {
        throw new ModelError("The agent's answer ended unexpectedly.", {
          retryable: !hasEvents,
          providerMessage: 'the stream ended without RUN_FINISHED',
        });
      }
    },
  };
}

async function post(
  doFetch: typeof fetch,
  options: AgUiModelOptions,
  input: RunAgentInput,
  signal: AbortSignal,
): Promise<Response> {
  let response: Response;
  try {
    response = await doFetch(options.url, {
      method: 'POST',
      headers: { ...options.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(input),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ModelError('The agent could not be reached.', { retryable: true, providerMessage: String(error) });
  }
  if (!response.ok || response.body === null) {
    const text = await response.text().catch(() => '');
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ModelError('The agent refused the request.', {
      retryable: response.status === 429 || response.status >= 500,
      status: response.status,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
      providerMessage: text.slice(0, 2000),
    });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream')) {
    await response.body.cancel().catch(() => undefined);
    throw new ModelError('The agent answered with something other than an event stream.', {
      retryable: false,
      providerMessage: `content-type: ${type}`,
    });
  }
  return response;
}
