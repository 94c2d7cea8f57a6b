/** The public API of the DOM-free client core (browsers, Node ≥ 20, workers). */
export type {
  AnyEventEnvelope,
  ApprovalDecision,
  AttachmentLimits,
  AttachmentRef,
  BootstrapResponse,
  ContextRef,
  CreateRunRequest,
  CreateRunResponse,
  EventDataMap,
  EventEnvelope,
  EventType,
  FocusContext,
  FocusSummary,
  ProblemCode,
  ProblemDetails,
  Proposal,
  ProposalDiffLine,
  ProposalField,
  ReasoningEffort,
  RunSnapshot,
  RunStatus,
  SessionListResponse,
  SessionResource,
  ShowBranchRequest,
  SnapshotInterrupt,
  SnapshotMessage,
  MessageFeedback,
  FeedbackRequest,
  FeedbackResponse,
  SnapshotToolCall,
  TerminalRunStatus,
  ToolCallStatus,
  ToolEvidence,
} from './protocol.ts';
export { MEDIA_TYPE_BY_EXTENSION, PROTOCOL_VERSION, extensionOf, isTerminalRunStatus } from './protocol.ts';
export { createEmptyRunSnapshot, reduceRun, reduceRunEvents } from './state/run-reducer.ts';
export type { RunEventFold } from './state/run-reducer.ts';
export { foldExecutorEvents } from './state/fold-executor-events.ts';
export type {
  ClientError,
  ClientRun,
  ClientState,
  ConnectionStatus,
  PendingSend,
  ClientExtension,
  RunNotice,
  ToolRunnerPhase,
  ToolRunnerView,
} from './client/client-state.ts';
export { createInitialClientState } from './client/client-store.ts';
export type {
  AgentClient,
  AgentClientHandle,
  AgentClientOptions,
  SendOptions,
  StateListener,
} from './client/agent-client-types.ts';
export { createAgentClient } from './client/agent-client.ts';
export type { ClientStorage } from './client/client-persistence.ts';
export { createConversations } from './client/conversations.ts';
export type { Conversations, ConversationsOptions } from './client/conversations.ts';
export { createInitialConversationsState, reduceConversations } from './client/conversations-reducer.ts';
export type { ConversationsAction, ConversationsState } from './client/conversations-reducer.ts';
export type { ClientErrorCode } from './client/client-errors.ts';
export { runResumeLoop } from './client/resume-loop.ts';
export type { ResumeLoopOptions, ResumeLoopPhase, ResumePosition } from './client/resume-loop.ts';
export { AgentError, isAgentError } from './transport/agent-error.ts';
export type { AgentErrorCode } from './transport/agent-error.ts';
export type { Clock } from './clock.ts';
export { attachToolRunner, FOLD_ONLY } from './tools/attach-tool-runner.ts';
export { checkHandlers } from './tools/check-handlers.ts';
export { EN_TOOL_RUNNER_STRINGS } from './tools/tool-runner-strings.ts';
export { describeToolCall } from './tools/tool-place.ts';
export type { ToolRunnerStrings } from './tools/tool-runner-strings.ts';
export { createMemoryReceiptStore, createPageLocks } from './tools/receipt-store.ts';
export type { FinalReceipt, ToolReceipt, ToolReceiptStore } from './tools/receipt-store.ts';
export { BusinessCancelled, BusinessFailure } from './tools/business-errors.ts';
export type {
  BrowserTool,
  BrowserToolCall,
  BrowserToolContext,
  ReconciledOutcome,
  ToolRunner,
  ToolRunnerDiagnostic,
  ToolRunnerOptions,
} from './tools/tool-runner-types.ts';
export type { ProtocolRequest, ProtocolResponse } from './client/agent-client-types.ts';
export type { BrowserToolDeclaration, SnapshotToolExecutor, FinalReceiptKind } from './protocol.ts';
export { WIDGET_ICON_NAMES, WIDGET_LIMITS } from './protocol.ts';
export type {
  Widget,
  WidgetActionRequest,
  WidgetActionResponse,
  WidgetField,
  WidgetFormNode,
  WidgetIconName,
  WidgetNode,
  WidgetValues,
} from './protocol.ts';
