/**
 * Wire types of agent-chat protocol v1: the one source of truth shared by the client core and
 * the reference server. `docs/protocol.md` is the normative prose for every type here.
 */

/** The protocol version this code speaks; `RUN_STARTED.data.protocolVersion` carries it. */
export const PROTOCOL_VERSION = '1.0';
/** The major version sent as the `Agent-Protocol` header and the envelope's `v`. */
export const PROTOCOL_MAJOR = 1;

/** Header names used by the protocol. */
export const HEADERS = {
  protocol: 'agent-protocol',
  identity: 'x-agent-identity',
  idempotencyKey: 'idempotency-key',
  requestId: 'x-request-id',
  replayed: 'idempotent-replayed',
  retryAfter: 'retry-after',
  lastEventId: 'last-event-id',
  runLastSeq: 'x-run-last-seq',
} as const;

// ─── Identifiers and small shared shapes ─────────────────────────────────────────────────────────────

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

// ─── Events (docs/protocol.md §7) ────────────────────────────────────────────────────────────────────

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
}

export type RunOutcome =
  { type: 'success'; pendingToolCallIds?: string[] } | { type: 'cancelled'; reason?: string; forced?: boolean };

/** The `data` payload of each event type. */
export interface EventDataMap {
  RUN_STARTED: {
    protocolVersion: string;
    parentRunId?: string;
    agent: { agentId: string; versionId: string };
    model?: { modelId: string; reasoningEffort?: ReasoningEffort };
    input: { messageId: string; clientMessageId?: string; content: InputContent[]; contextRefs?: ContextRef[] };
    traceId?: string;
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
  TOOL_CALL_START: { toolCallId: string; toolCallName: string; parentMessageId?: string; title?: string };
  TOOL_CALL_ARGS: { toolCallId: string; delta: string };
  TOOL_CALL_END: { toolCallId: string; args: unknown; argsDigest: string };
  TOOL_CALL_PROGRESS: { toolCallId: string; message?: string; fraction?: number };
  TOOL_CALL_RESULT: {
    toolCallId: string;
    messageId: string;
    content: string;
    status: ToolResultStatus;
    truncated?: boolean;
  };
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
  NOTICE: { level: 'info' | 'warning'; code: string; message: string };
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
  /** Reserved for later shared state. */
  STATE_SNAPSHOT: { snapshot: unknown };
  /** Reserved for later shared state. */
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

/** The event types that end a run's log. */
export const TERMINAL_EVENT_TYPES: readonly EventType[] = ['RUN_FINISHED', 'RUN_ERROR'];

/** One wire event. Every event is persisted and sequenced before it reaches a socket. */
export interface EventEnvelope<T extends EventType = EventType> {
  v: typeof PROTOCOL_MAJOR;
  /** `evt_` + ULID; stable across replays. */
  eventId: string;
  runId: string;
  sessionId: string;
  /** Per run, gapless, from 1: the only ordering authority. */
  seq: number;
  /** Opaque; equal to the SSE `id:`. Clients never build cursors. */
  cursor: string;
  type: T;
  /** Epoch milliseconds at append (server clock). */
  timestamp: number;
  data: EventDataMap[T];
}

/** Any event, discriminated on `type` so `switch (event.type)` narrows `data`. */
export type AnyEventEnvelope = { [T in EventType]: EventEnvelope<T> }[EventType];

/** True when the event ends its run. */
export function isTerminalEvent(event: EventEnvelope): boolean {
  return event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';
}

// ─── Snapshots (docs/protocol.md §5.3) ───────────────────────────────────────────────────────────────

export type MessageStatus = 'streaming' | 'complete' | 'cancelled' | 'error';

export interface SnapshotMessage {
  messageId: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  runId?: string;
  clientMessageId?: string;
  inputId?: string;
  parentMessageId?: string;
  finishReason?: FinishReason;
  contextRefs?: ContextRef[];
  createdAt?: number;
}

export type ToolCallStatus = 'streaming_args' | 'pending' | 'awaiting_approval' | 'running' | ToolResultStatus;

export interface SnapshotToolCall {
  toolCallId: string;
  name: string;
  title?: string;
  parentMessageId?: string;
  /** Raw argument text as streamed (`TOOL_CALL_ARGS`), until `TOOL_CALL_END` gives `args`. */
  argsText?: string;
  args?: unknown;
  argsDigest?: string;
  status: ToolCallStatus;
  progress?: { message?: string; fraction?: number };
  result?: { messageId: string; content: string; truncated?: boolean };
}

export type InterruptState = 'open' | 'resolved' | 'cancelled' | 'expired';

export interface SnapshotInterrupt extends InterruptRequest {
  state: InterruptState;
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

// ─── REST bodies (docs/protocol.md §4) ───────────────────────────────────────────────────────────────

export interface ModelInfo {
  modelId: string;
  label: string;
  default?: boolean;
  available: boolean;
  reasoningOptions?: ReasoningEffort[];
}

export interface Capabilities {
  reasoning: { visible: boolean };
  approvals: { supported: boolean; approveWithEdits: boolean };
  inputs: { duringRun: boolean; contentTypes: string[] };
  cancel: boolean;
  sessions: { list: boolean; rename: boolean };
  stream: { poll: boolean; createAndStream: boolean };
}

export interface Limits {
  maxInputChars: number;
  maxInputsPerRun: number;
  maxEventBytes: number;
  maxRequestBytes: number;
  runMaxDurationSec: number;
  interruptDefaultTtlSec: number;
  eventRetentionSec: number;
  idempotencyKeyTtlSec: number;
  maxRounds: number;
}

export interface StreamSettings {
  heartbeatSec: number;
  clientIdleTimeoutSec: number;
  maxStreamDurationSec: number;
  retryMs: number;
}

/** `GET /bootstrap`. */
export interface BootstrapResponse {
  protocol: { version: string; supported: string[] };
  identity: { identityId: string; displayName?: string; expiresAt?: string };
  agent: { agentId: string; versionId: string; name: string; status: 'active' | 'disabled' | 'archived' };
  models: ModelInfo[];
  capabilities: Capabilities;
  limits: Limits;
  stream: StreamSettings;
}

/** `POST /runs` body. */
export interface CreateRunRequest {
  sessionId?: string;
  agentVersionId: string;
  input: { clientMessageId?: string; content: InputContent[]; contextRefs?: ContextRef[] };
  options?: {
    modelId?: string;
    reasoningEffort?: ReasoningEffort;
    limits?: { maxCostUsd?: string };
  };
}

/** `201` of `POST /runs` (and its replay). */
export interface CreateRunResponse {
  runId: string;
  sessionId: string;
  status: RunStatus;
  lastSeq: number;
  resumeCursor: string;
  eventsUrl: string;
  userMessageId: string;
  createdAt: string;
}

/** `GET /runs/{id}`: the snapshot with REST timestamps. */
export interface RunResource extends Omit<RunSnapshot, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

/** `POST /runs/{id}/interrupts/{iid}` body. */
export type ResolveInterruptRequest =
  { decision: ApprovalDecision; argsDigest: string; reason?: string; editedArgs?: unknown } | { response: unknown };

export interface ResolveInterruptResponse {
  interrupt: SnapshotInterrupt;
  eventSeq: number;
}

export interface CancelRunRequest {
  reason?: string;
}

export interface CancelRunResponse {
  status: RunStatus;
  eventSeq?: number;
}

/** `POST /runs/{id}/inputs` body. */
export interface AddInputRequest {
  clientMessageId?: string;
  content: InputContent[];
}

export interface AddInputResponse {
  inputId: string;
  messageId: string;
  eventSeq: number;
}

export interface ActiveRunRef {
  runId: string;
  status: RunStatus;
  lastSeq: number;
}

export interface SessionResource {
  sessionId: string;
  agentVersionId: string;
  title: string | null;
  activeRun: ActiveRunRef | null;
  lastRunId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionListResponse {
  items: SessionResource[];
  nextAfter: string | null;
}

/** `GET /sessions/{id}/messages`: settled messages, newest first. */
export interface SessionMessagesResponse {
  items: SnapshotMessage[];
  nextBefore: string | null;
  activeRun: ActiveRunRef | null;
}

// ─── Errors (docs/protocol.md §14) ───────────────────────────────────────────────────────────────────

/** Codes an HTTP problem can carry, with their status. */
export const PROBLEM_STATUS = {
  PROTOCOL_VERSION_UNSUPPORTED: 400,
  UNAUTHENTICATED: 401,
  IDENTITY_CHANGED: 409,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  VALIDATION_FAILED: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  AGENT_UNAVAILABLE: 503,
  INTERNAL: 500,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  RUN_ALREADY_ACTIVE: 409,
  RUN_NOT_ACTIVE: 409,
  RUN_NOT_ACCEPTING_INPUT: 409,
  AGENT_VERSION_MISMATCH: 409,
  MODEL_UNAVAILABLE: 409,
  INSUFFICIENT_BALANCE: 402,
  UNSUPPORTED_CONTENT: 422,
  INPUT_LIMIT: 429,
  CURSOR_INVALID: 400,
  CURSOR_EXPIRED: 410,
  INTERRUPT_NOT_FOUND: 404,
  INTERRUPT_ALREADY_RESOLVED: 409,
  INTERRUPT_EXPIRED: 410,
  ARGS_DIGEST_MISMATCH: 412,
  EDITED_ARGS_INVALID: 422,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

/** Codes a run can end with in `RUN_ERROR`. */
export type RunErrorCode =
  | 'MODEL_ERROR'
  | 'MODEL_TIMEOUT'
  | 'MAX_ITERATIONS'
  | 'TOKEN_BUDGET_EXCEEDED'
  | 'COST_LIMIT_EXCEEDED'
  | 'TOOL_DISPATCH_ERROR'
  | 'RUN_TIMEOUT'
  | 'RUN_ABANDONED'
  | 'INTERNAL';

/** RFC 9457 problem body; `code` is the stable contract. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  code: ProblemCode | (string & {});
  detail?: string;
  requestId: string;
  retryable: boolean;
  retryAfterMs: number | null;
  runId: string | null;
  details: Record<string, unknown>;
}
