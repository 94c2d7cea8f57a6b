/**
 * Event types and the envelope (docs/protocol.md §6, §7).
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */
import type {
  AttachmentRef,
  ApprovalDecision,
  ContextRef,
  FocusSummary,
  ToolEvidence,
  FinishReason,
  InputContent,
  InterruptReason,
  ReasoningEffort,
  RunStatus,
  TokenUsage,
  ToolResultStatus,
} from './basics.ts';
import type { EventEnvelope as WireEventEnvelope } from './generated/wire-contract.ts';
import type { BrowserToolDeclaration, ExecutorKind, ToolReceiptRequest } from './browser-tools.ts';
import type { RunErrorCode } from './problems.ts';
import type { SnapshotMessage } from './messages.ts';
import type { Widget } from './widgets.ts';

/** An interrupt as requested on the wire: AG-UI's `Interrupt` plus `argsDigest`. */
export interface InterruptRequest {
  id: string;
  reason: InterruptReason;
  message?: string;
  toolCallId?: string;
  argsDigest?: string;
  responseSchema?: Record<string, unknown>;
  /** ISO-8601. Past it the server resolves the interrupt as expired (deny). */
  expiresAt?: string;
  metadata?: Record<string, unknown>;
  /** Set on a `reason: "proposal"` interrupt: the preview the user answers Apply or Dismiss to (docs/protocol.md §11.1). */
  proposal?: Proposal;
}

/**
 * A tool's proposed write (docs/protocol.md §11.1): what the user sees before deciding, and the
 * write Apply runs. `argsDigest` of its interrupt is the digest of `apply.arguments`.
 */
export interface Proposal {
  /** One sentence saying what would change. */
  summary: string;
  /** The values that would change, each with the one it replaces when there is one. */
  fields?: ProposalField[];
  /** A text change as lines, in order. */
  diff?: ProposalDiffLine[];
  /** The server tool Apply runs, with exactly these arguments. */
  apply: { tool: string; arguments: Record<string, unknown> };
}

/** One value a proposal would change. */
export interface ProposalField {
  name: string;
  before?: string;
  after: string;
}

/** One line of a proposal's text change. */
export interface ProposalDiffLine {
  change: 'added' | 'removed' | 'unchanged';
  text: string;
}

export type RunOutcome =
  | { type: 'success'; pendingToolCallIds?: string[] }
  | { type: 'cancelled'; reason?: string; forced?: boolean }
  /** A tool ended the run on purpose (docs/agent-loop.md, "Evidence"): finished, not failed. */
  | { type: 'stopped'; reason: string; toolCallId?: string };

/** The `data` payload of each event type. */
export interface EventDataMap {
  RUN_STARTED: {
    protocolVersion: string;
    parentRunId?: string;
    agent: { agentId: string; versionId: string };
    model?: { modelId: string; reasoningEffort?: ReasoningEffort };
    input: {
      messageId: string;
      clientMessageId?: string;
      content: InputContent[];
      contextRefs?: ContextRef[];
      /** The files attached to the message (docs/protocol.md §5.8): what they are, never their bytes. */
      attachments?: AttachmentRef[];
      /** The page context sent with the message: its title and size only (the text goes to the model, not the log). */
      focus?: FocusSummary;
      /** The message this turn follows on its branch (docs/protocol.md §5.2); absent on a conversation's first turn. */
      parentMessageId?: string;
    };
    traceId?: string;
    /** The browser tools the run may call (docs/protocol.md §19), when the server supports them. */
    browserTools?: BrowserToolDeclaration[];
  };
  RUN_STATUS_CHANGED: { status: RunStatus; reason?: string };
  STEP_STARTED: { stepName: string; consumedInputIds?: string[] };
  STEP_FINISHED: { stepName: string };
  TEXT_MESSAGE_START: {
    messageId: string;
    role: 'assistant' | 'user';
    parentMessageId?: string;
    inputId?: string;
    clientMessageId?: string;
  };
  TEXT_MESSAGE_CONTENT: { messageId: string; delta: string };
  TEXT_MESSAGE_END: { messageId: string; finishReason?: FinishReason };
  REASONING_START: { messageId: string };
  REASONING_MESSAGE_START: { messageId: string; role: 'reasoning' };
  REASONING_MESSAGE_CONTENT: { messageId: string; delta: string };
  REASONING_MESSAGE_END: { messageId: string };
  REASONING_END: { messageId: string };
  TOOL_CALL_START: {
    toolCallId: string;
    toolCallName: string;
    parentMessageId?: string;
    title?: string;
    /** `browser` for a browser tool; absent when the server runs it. */
    executorKind?: ExecutorKind;
    /** The interrupt id of the proposal whose Apply started this call (docs/protocol.md §11.1). */
    proposalId?: string;
  };
  TOOL_CALL_ARGS: { toolCallId: string; delta: string };
  TOOL_CALL_END: { toolCallId: string; args: unknown; argsDigest: string };
  TOOL_CALL_PROGRESS: { toolCallId: string; message?: string; fraction?: number };
  TOOL_CALL_RESULT: {
    toolCallId: string;
    messageId: string;
    content: string;
    status: ToolResultStatus;
    truncated?: boolean;
    /** How the call was governed, in order: each check's decision and reason. */
    evidence?: ToolEvidence[];
    /** What the user sees for the result (docs/widgets.md): validated, never sent to the model. */
    widget?: Widget;
  };
  /** Governance let a browser call out: it may be claimed until `expiresAt` (docs/protocol.md §19). */
  TOOL_CALL_DISPATCHED: { toolCallId: string; executorKind: ExecutorKind; expiresAt: string };
  /** An executor claimed the call; only the grant's digest is logged. */
  TOOL_CALL_CLAIMED: { toolCallId: string; executorId: string; grantDigest: string };
  /** An unstarted claim was given up (the executor disconnected or stopped heartbeating). */
  TOOL_CALL_RELEASED: { toolCallId: string; executorId: string; reason: 'disconnected' | 'executor_lost' };
  /** A receipt of the claim holder: `accepted`, `progress` or a final outcome (`content` for finals). */
  TOOL_CALL_RECEIPT: Omit<ToolReceiptRequest, 'result'> & {
    toolCallId: string;
    /** A final receipt's outcome as the model will get it (the result serialised, or the message). */
    content?: string;
    truncated?: boolean;
  };
  /** The claim holder reported a diagnostic; `reconciliation_required` ends the call `unknown`. */
  TOOL_CALL_REPORTED: { toolCallId: string; executorId: string; code: string; message?: string };
  /**
   * A widget the run showed changed while the run goes on (docs/widgets.md, "Updating a widget"):
   * `widget` (same `widgetId`, a higher `revision`, a new `digest`) replaces the one on the
   * result of call `toolCallId`.
   */
  WIDGET_UPDATED: { toolCallId: string; widget: Widget };
  INTERRUPT_REQUESTED: { interrupt: InterruptRequest };
  INTERRUPT_RESOLVED: {
    interruptId: string;
    status: 'resolved' | 'cancelled' | 'expired';
    decision?: ApprovalDecision;
    editedArgsDigest?: string;
    resolvedBy: 'user' | 'policy' | 'timeout' | 'cancel';
    /** The user's answer to an `input_required` interrupt (`POST …/interrupts/{id}` `{response}`). */
    response?: unknown;
  };
  MESSAGE_DISCARDED: { messageId: string; reason: 'attempt_retry' | 'superseded' };
  NOTICE: {
    level: 'info' | 'warning';
    code: string;
    message: string;
    /** `MODEL_RETRYING`: the number of the model attempt that follows (2 for the first retry). */
    attempt?: number;
    /** `MODEL_RETRYING`: when that attempt starts (ISO). */
    retryAt?: string;
  };
  CUSTOM: { name: string; value: unknown };
  RUN_FINISHED: {
    outcome: RunOutcome;
    result?: unknown;
    usage?: TokenUsage[];
    costUsd?: string;
    unconsumedInputIds?: string[];
  };
  RUN_ERROR: {
    code: RunErrorCode | (string & {});
    message: string;
    retryable: boolean;
    correlationId?: string;
    usage?: TokenUsage[];
    costUsd?: string;
    unconsumedInputIds?: string[];
  };
  /** Reserved: v1 servers never emit it (snapshots are served over REST). */
  MESSAGES_SNAPSHOT: { messages: SnapshotMessage[] };
  /** An AG-UI agent's state, passed through by a server that fronts one (docs/ag-ui.md); cursor only. */
  STATE_SNAPSHOT: { snapshot: unknown };
  /** An RFC 6902 patch of that state, passed through the same way; cursor only. */
  STATE_DELTA: { delta: unknown[] };
}

export type EventType = keyof EventDataMap;

/** Every event type the protocol defines, in the order of docs/protocol.md §7. */
export const EVENT_TYPES: readonly EventType[] = [
  'RUN_STARTED',
  'RUN_STATUS_CHANGED',
  'STEP_STARTED',
  'STEP_FINISHED',
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_END',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_PROGRESS',
  'TOOL_CALL_RESULT',
  'TOOL_CALL_DISPATCHED',
  'TOOL_CALL_CLAIMED',
  'TOOL_CALL_RELEASED',
  'TOOL_CALL_RECEIPT',
  'TOOL_CALL_REPORTED',
  'WIDGET_UPDATED',
  'INTERRUPT_REQUESTED',
  'INTERRUPT_RESOLVED',
  'MESSAGE_DISCARDED',
  'NOTICE',
  'CUSTOM',
  'RUN_FINISHED',
  'RUN_ERROR',
  'MESSAGES_SNAPSHOT',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
];

/**
 * One wire event. Every event is persisted and sequenced before it reaches a socket. Its members
 * are the contract schema's `EventEnvelope`; `data` is narrowed here to the payload of its `type`.
 */
export interface EventEnvelope<T extends EventType = EventType> extends Omit<WireEventEnvelope, 'type' | 'data'> {
  type: T;
  data: EventDataMap[T];
}

/** Any event, discriminated on `type` so `switch (event.type)` narrows `data`. */
export type AnyEventEnvelope = { [T in EventType]: EventEnvelope<T> }[EventType];

/** True when the event ends its run. */
export function isTerminalEvent(event: EventEnvelope): boolean {
  return event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';
}
