/**
 * The run snapshot: the reducer's output, served by `GET /runs/{id}` (docs/protocol.md §5.3).
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */
import type {
  ApprovalDecision,
  ReasoningEffort,
  RunStatus,
  TokenUsage,
  ToolEvidence,
  ToolResultStatus,
} from './basics.ts';
import type { SnapshotToolExecutor } from './browser-tools.ts';
import type { EventDataMap, InterruptRequest, RunOutcome } from './events.ts';
import type { SnapshotMessage } from './messages.ts';
import type { Widget } from './widgets.ts';

/** `awaiting_executor`: a browser call waits to be claimed and started (docs/protocol.md §19). */
export type ToolCallStatus =
  'streaming_args' | 'pending' | 'awaiting_approval' | 'awaiting_executor' | 'running' | ToolResultStatus;

export interface SnapshotToolCall {
  toolCallId: string;
  name: string;
  title?: string;
  parentMessageId?: string;
  runId?: string;
  /**
   * The seq of the event that started it in its run (docs/protocol.md §7.4): a transcript reads
   * by run, then by this. Absent on items stored before it was recorded.
   */
  seq?: number;
  /** Raw argument text as streamed (`TOOL_CALL_ARGS`), until `TOOL_CALL_END` gives `args`. */
  argsText?: string;
  args?: unknown;
  argsDigest?: string;
  status: ToolCallStatus;
  progress?: { message?: string; fraction?: number };
  result?: { messageId: string; content: string; truncated?: boolean; evidence?: ToolEvidence[]; widget?: Widget };
  /** Present for a browser tool: who runs it and what its receipts said (docs/protocol.md §19). */
  executor?: SnapshotToolExecutor;
}

export type InterruptState = 'open' | 'resolved' | 'cancelled' | 'expired';

export interface SnapshotInterrupt extends InterruptRequest {
  state: InterruptState;
  runId?: string;
  /**
   * The seq of the event that started it in its run (docs/protocol.md §7.4): a transcript reads
   * by run, then by this. Absent on items stored before it was recorded.
   */
  seq?: number;

  decision?: ApprovalDecision;
  resolvedBy?: EventDataMap['INTERRUPT_RESOLVED']['resolvedBy'];
  editedArgsDigest?: string;
}

export interface SnapshotInput {
  inputId: string;
  messageId: string;
  clientMessageId?: string;
  state: 'pending' | 'consumed';
}

export interface RunError {
  code: string;
  message: string;
  retryable: boolean;
  correlationId?: string;
}

/** The state of one run: `reduceRun` over events 1..lastSeq. */
export interface RunSnapshot {
  runId: string;
  sessionId: string;
  status: RunStatus;
  agent: { agentId: string; versionId: string } | null;
  model: { modelId: string; reasoningEffort?: ReasoningEffort } | null;
  lastSeq: number;
  resumeCursor: string;
  messages: SnapshotMessage[];
  toolCalls: SnapshotToolCall[];
  interrupts: SnapshotInterrupt[];
  inputs: SnapshotInput[];
  notices: EventDataMap['NOTICE'][];
  step: string | null;
  usage: TokenUsage[] | null;
  costUsd: string | null;
  outcome: RunOutcome | null;
  error: RunError | null;
  unconsumedInputIds: string[];
  traceId: string | null;
  /** Epoch ms of the first and latest applied events (the REST resource adds ISO strings). */
  createdAt: number | null;
  updatedAt: number | null;
}
