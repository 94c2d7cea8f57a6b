import type { ReasoningEffort, TokenUsage, ToolResultStatus } from '../../core/protocol.ts';
import type { PendingEvent } from '../runs/run-handle.ts';

/** A tool as the model sees it: a name, what it does and its JSON Schema parameters. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call the assistant made, as it goes back to the model in the next round. */
export interface ModelToolCall {
  id: string;
  name: string;
  /** The raw JSON text of the arguments, as the model produced it. */
  arguments: string;
}

/**
 * Which prompt layer a system message is (docs/agent-loop.md, "Prompt layers"). Adapters send
 * only its text; the tag lets tests and the scripted model's `/context` see what reached the model.
 */
export type PromptLayer = 'kernel' | 'product' | 'history_note' | 'focus' | 'attachments' | 'instruction';

/** An attached image as the model gets it (docs/protocol.md §5.8): its verified type and its bytes in base64. */
export interface ModelImage {
  mediaType: string;
  base64: string;
}

/** One message of the conversation sent to the model. */
export type ModelMessage =
  | { role: 'system'; content: string; layer?: PromptLayer; truncated?: boolean }
  /** `images`: the message's attached images, only ever for a model that declares `imageInput`. */
  | { role: 'user'; content: string; images?: ModelImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string; status: ToolResultStatus };

/** What one model call gets. */
export interface ModelRequest {
  messages: ModelMessage[];
  tools: ToolSpec[];
  reasoningEffort?: ReasoningEffort;
  maxOutputTokens?: number;
  /** 1 for the first attempt of a round, 2 for its first retry, …; adapters may ignore it. */
  attempt?: number;
  /** The session and run being answered, for adapters that keep state per conversation (AG-UI's `threadId`). */
  conversation?: { sessionId: string; runId: string };
}

/** Why the model stopped. */
export type ModelFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** One piece of a streamed model answer. */
export type ModelChunk =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  /** A fragment of a streamed tool call; fragments with the same `index` belong together. */
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; argumentsDelta?: string }
  /** A whole tool call in one chunk. */
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  /** The call's usage so far: a running total, so the last one of an attempt counts (never summed). */
  | { type: 'usage'; usage: TokenUsage }
  /** The current text message is over: text after it starts a new message. */
  | { type: 'text_end' }
  /**
   * An event the model's backend produced itself, appended to the log as is, in stream order: an
   * AG-UI agent's state, custom events and the tool calls it ran on its own (docs/ag-ui.md).
   */
  | { type: 'event'; event: PendingEvent }
  | { type: 'finish'; reason: ModelFinishReason };

/**
 * A model the agent loop can call. `stream` yields chunks until the answer ends; it throws a
 * `ModelError` for provider failures and rejects with `signal.reason` when `signal` aborts (the
 * caller owns the signal and aborting it must release the connection).
 */
export interface ModelAdapter {
  /**
   * The model's id: what bootstrap lists and `RUN_STARTED.model` names when the handler is given
   * no `models` (`createRunEngine` publishes it), the key of its price in `prices`, and the
   * `modelId` of usage the provider does not name.
   */
  readonly id: string;
  /** How bootstrap names the model to users (default its `id`). */
  readonly label?: string;
  /**
   * The reasoning efforts the model takes. The loop sends a run's `reasoningEffort` only when it is
   * listed here; a model that declares none (or leaves this out) never gets one.
   */
  readonly reasoningOptions?: readonly ReasoningEffort[];
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk>;
}

/** The codes a model failure maps to (they are also `RUN_ERROR` codes). */
export type ModelErrorCode = 'MODEL_ERROR' | 'MODEL_TIMEOUT';

/** Options of {@link ModelError}. */
export interface ModelErrorOptions {
  code?: ModelErrorCode;
  /** True when the same request may succeed if tried again (429, 5xx, network). */
  retryable: boolean;
  /** The provider's wish from `Retry-After`, in ms. */
  retryAfterMs?: number;
  /** The provider's HTTP status, when there was one. */
  status?: number;
  /** The provider's own error text: server logs only, never sent to a browser. */
  providerMessage?: string;
}

/**
 * A model call failure. `message` is safe to show a user; the provider's own words stay in
 * `providerMessage`, which is for server logs only.
 */
export class ModelError extends Error {
  readonly code: ModelErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  readonly providerMessage: string | undefined;

  constructor(message: string, options: ModelErrorOptions) {
    super(message);
    this.name = 'ModelError';
    this.code = options.code ?? 'MODEL_ERROR';
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
    this.providerMessage = options.providerMessage;
  }
}
