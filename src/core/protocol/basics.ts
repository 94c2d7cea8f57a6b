/**
 * Protocol version, header names and the small shapes every other part uses.
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */

/** The protocol version this code speaks; `RUN_STARTED.data.protocolVersion` carries it. */
export const PROTOCOL_VERSION = '1.0';
/** The major version sent as the `Agent-Protocol` header and the envelope's `v`. */
export const PROTOCOL_MAJOR = 1;

/** A run's lifecycle state (docs/protocol.md §8). Terminal states absorb. */
export type RunStatus =
  'queued' | 'running' | 'awaiting_input' | 'cancelling' | 'completed' | 'failed' | 'cancelled' | 'expired';

/** The run states a run never leaves. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled', 'expired'];

/** True when `status` is terminal. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return TERMINAL_RUN_STATUSES.includes(status);
}

/** One piece of user content; v1 accepts text only. */
export interface TextContent {
  type: 'text';
  text: string;
}
export type InputContent = TextContent;

/** A product-authorized reference the user attached (a document, a ticket). */
export interface ContextRef {
  ref: string;
  title?: string;
  url?: string;
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** Token usage of one model call. */
export interface TokenUsage {
  modelId?: string;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
}

export type MessageRole = 'user' | 'assistant' | 'reasoning';
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'cancelled' | 'error';
export type ToolResultStatus = 'completed' | 'failed' | 'denied' | 'cancelled' | 'unknown';
export type ApprovalDecision = 'allow' | 'deny';
export type InterruptReason = 'tool_call' | 'input_required' | 'confirmation' | (string & {});
