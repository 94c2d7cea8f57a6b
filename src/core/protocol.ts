/**
 * Wire types of agent-chat protocol v1: the one source of truth shared by the client core and
 * the reference server. `docs/protocol.md` is the normative prose for every type here.
 */

export {
  PROTOCOL_VERSION,
  PROTOCOL_MAJOR,
  REASONING_EFFORTS,
  TERMINAL_RUN_STATUSES,
  isTerminalRunStatus,
} from './protocol/basics.ts';
export {
  ACCEPT_LANGUAGE_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  IDENTITY_HEADER,
  LAST_EVENT_ID_HEADER,
  PROTOCOL_HEADER,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  RUN_LAST_SEQ_HEADER,
  TOOL_GRANT_HEADER,
} from './protocol/headers.ts';
export type {
  RunStatus,
  TerminalRunStatus,
  TextContent,
  InputContent,
  ContextRef,
  ReasoningEffort,
  FocusContext,
  FocusSummary,
  ToolEvidence,
  TokenUsage,
  MessageRole,
  FinishReason,
  ToolResultStatus,
  ApprovalDecision,
  InterruptReason,
} from './protocol/basics.ts';
export { EVENT_TYPES, isTerminalEvent } from './protocol/events.ts';
export type {
  InterruptRequest,
  Proposal,
  ProposalField,
  ProposalDiffLine,
  RunOutcome,
  EventDataMap,
  EventType,
  EventEnvelope,
  AnyEventEnvelope,
} from './protocol/events.ts';
export type {
  MessageStatus,
  SnapshotMessage,
  MessageFeedback,
  ToolCallStatus,
  SnapshotToolCall,
  InterruptState,
  SnapshotInterrupt,
  SnapshotInput,
  RunError,
  RunSnapshot,
} from './protocol/snapshots.ts';
export type {
  ModelInfo,
  Capabilities,
  Limits,
  StreamSettings,
  BootstrapResponse,
  CreateRunRequest,
  CreateRunResponse,
  RunResource,
  ResolveInterruptRequest,
  ResolveInterruptResponse,
  FeedbackRequest,
  FeedbackResponse,
  CancelRunRequest,
  CancelRunResponse,
  AddInputRequest,
  AddInputResponse,
  ActiveRunRef,
  SessionResource,
  RenameSessionRequest,
  SessionListResponse,
  SessionMessagesResponse,
  BrowserToolLimits,
} from './protocol/rest-bodies.ts';
export type {
  ExecutorKind,
  BrowserToolDeclaration,
  ReceiptKind,
  FinalReceiptKind,
  SnapshotToolExecutor,
  ConnectExecutorRequest,
  ExecutorLeaseResponse,
  DisconnectExecutorResponse,
  PendingToolCall,
  PendingToolCallsResponse,
  ClaimToolCallRequest,
  ClaimToolCallResponse,
  ToolReceiptRequest,
  ToolReceiptResponse,
  ExecutorReportRequest,
} from './protocol/browser-tools.ts';
export { PROBLEM_STATUS } from './protocol/problems.ts';
export type { ProblemCode, RunErrorCode, ProblemDetails } from './protocol/problems.ts';
