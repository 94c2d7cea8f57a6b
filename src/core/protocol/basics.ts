/**
 * Protocol version, header names and the small shapes every other part uses.
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */

import type { ReasoningEffort, RunStatus } from './generated/wire-contract.ts';

// The request bodies' shapes come from the contract's schema (src/core/protocol/schema/).
export type {
  ApprovalDecision,
  ContextRef,
  FocusContext,
  InputContent,
  ReasoningEffort,
  RunStatus,
  TextContent,
} from './generated/wire-contract.ts';

/** The protocol version this code speaks; `RUN_STARTED.data.protocolVersion` carries it. */
export const PROTOCOL_VERSION = '1.0';
/** The major version sent as the `Agent-Protocol` header and the envelope's `v`. */
export const PROTOCOL_MAJOR = 1;

/** A run state a run never leaves: how it ended (`expired`: it ran past `runMaxDurationSec`). */
export type TerminalRunStatus = Extract<RunStatus, 'completed' | 'failed' | 'cancelled' | 'expired'>;

/** The run states a run never leaves. */
export const TERMINAL_RUN_STATUSES: readonly TerminalRunStatus[] = ['completed', 'failed', 'cancelled', 'expired'];

/** True when `status` is terminal. */
export function isTerminalRunStatus(status: RunStatus): status is TerminalRunStatus {
  return (TERMINAL_RUN_STATUSES as readonly RunStatus[]).includes(status);
}

/**
 * A file the user attached to a message (docs/protocol.md §5.8): what the log, the snapshot and
 * the history keep of it (never its bytes). `GET {base}/v1/attachments/{attachmentId}` serves it
 * to its owner.
 */
export interface AttachmentRef {
  attachmentId: string;
  /** The file's name as the user's system gave it (display only). */
  name: string;
  /** The media type the server verified against the file's first bytes. */
  mediaType: string;
  /** Bytes. */
  size: number;
}

/** Every reasoning effort the protocol names, weakest first. */
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/** Token usage of one model call. */
export interface TokenUsage {
  modelId?: string;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  /** Of `inputTokens`, how many the provider read from its prompt cache (priced apart when the model has a cached price). */
  cachedInputTokens?: number;
}

export type MessageRole = 'user' | 'assistant' | 'reasoning';
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'cancelled' | 'error';
/** `expired`: a browser call nobody started before its deadline (docs/protocol.md §19). */
export type ToolResultStatus = 'completed' | 'failed' | 'denied' | 'cancelled' | 'unknown' | 'expired';
export type InterruptReason = 'tool_call' | 'input_required' | 'confirmation' | (string & {});

/** A focus context as the log keeps it: its title and how many characters it had. */
export interface FocusSummary {
  title?: string;
  chars: number;
}

/**
 * What one of the product's checks decided about a tool call, and why (docs/agent-loop.md,
 * "Evidence"): its pre-use hook, its permission check or its post-use hook (approvals asked in
 * the run are their own interrupts).
 */
export interface ToolEvidence {
  source: 'pre_tool_use' | 'can_execute' | 'post_tool_use';
  /** `kept`/`replaced`: what the post-use hook did with the result. */
  decision: 'allow' | 'ask' | 'deny' | 'expired' | 'kept' | 'replaced';
  reason?: string;
}
