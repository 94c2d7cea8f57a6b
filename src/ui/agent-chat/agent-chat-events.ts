import type {
  ApprovalDecision,
  ClientError,
  ContextRef,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
  TerminalRunStatus,
} from '../../core/index.ts';

/** `detail` of `agent-chat-send`, dispatched just before a message is sent (or added to the active run). */
export interface AgentChatSendDetail {
  /** The text as the person typed it. */
  text: string;
  /** The references that go with it: picked with `selectAttachments`, or files kept by `uploadAttachment` (empty when none). */
  contextRefs: ContextRef[];
  /** The files uploaded to the server that go with it (empty when none). */
  attachments: { attachmentId: string }[];
}

/** `detail` of `agent-chat-approve`, dispatched when the person answers an approval request. */
export interface AgentChatApproveDetail {
  /** The interrupt that was answered (`int_…`). */
  interruptId: string;
  decision: ApprovalDecision;
}

/** `detail` of `agent-chat-error`, dispatched once per new error the widget shows: that error. */
export type AgentChatErrorDetail = ClientError;

/** `detail` of `agent-chat-run-start`: a run began (or a live run was first seen, e.g. after a reload). */
export interface AgentChatRunStartDetail {
  runId: string;
}

/** `detail` of `agent-chat-run-finish`: a run seen live reached its terminal status. */
export interface AgentChatRunFinishDetail {
  runId: string;
  /** How it ended: `completed`, `failed`, `cancelled` or `expired` (it ran past `runMaxDurationSec`). */
  status: TerminalRunStatus;
}

/** `detail` of `agent-chat-message`: an answer finished streaming (`status: 'complete'`). */
export interface AgentChatMessageDetail {
  message: SnapshotMessage;
}

/** `detail` of `agent-chat-tool-start` and `agent-chat-tool-end`: the tool call as it stands. */
export interface AgentChatToolDetail {
  toolCall: SnapshotToolCall;
}

/** `detail` of `agent-chat-approval-request` (open) and `agent-chat-approval-resolve` (answered, expired or cancelled). */
export interface AgentChatApprovalDetail {
  interrupt: SnapshotInterrupt;
}

/** `detail` of `agent-chat-session`: the conversation changed; store `sessionId` to restore it later (null: a new, unsaved one). */
export interface AgentChatSessionDetail {
  sessionId: string | null;
}

/** `detail` of `agent-chat-launcher-open` and `agent-chat-launcher-close`: nothing. */
export type AgentChatLauncherDetail = null;

/** Every DOM event `<agent-chat>` dispatches, by name, with the type of its `detail`. */
export interface AgentChatEventDetails {
  'agent-chat-send': AgentChatSendDetail;
  'agent-chat-approve': AgentChatApproveDetail;
  'agent-chat-error': AgentChatErrorDetail;
  'agent-chat-run-start': AgentChatRunStartDetail;
  'agent-chat-run-finish': AgentChatRunFinishDetail;
  'agent-chat-message': AgentChatMessageDetail;
  'agent-chat-tool-start': AgentChatToolDetail;
  'agent-chat-tool-end': AgentChatToolDetail;
  'agent-chat-approval-request': AgentChatApprovalDetail;
  'agent-chat-approval-resolve': AgentChatApprovalDetail;
  'agent-chat-session': AgentChatSessionDetail;
  'agent-chat-launcher-open': AgentChatLauncherDetail;
  'agent-chat-launcher-close': AgentChatLauncherDetail;
}

/** The name of one of `<agent-chat>`'s events. */
export type AgentChatEventName = keyof AgentChatEventDetails;

/**
 * `<agent-chat>`'s events by name. Each is a `CustomEvent` that bubbles and crosses shadow roots
 * (`composed`); none is cancelable.
 */
export type AgentChatEventMap = { [Name in AgentChatEventName]: CustomEvent<AgentChatEventDetails[Name]> };

/** Creates one of `<agent-chat>`'s events: a bubbling, composed `CustomEvent` carrying `detail`. */
export function createAgentChatEvent<Name extends AgentChatEventName>(
  name: Name,
  detail: AgentChatEventDetails[Name],
): CustomEvent<AgentChatEventDetails[Name]> {
  return new CustomEvent(name, { detail, bubbles: true, composed: true });
}

declare global {
  /** `addEventListener('agent-chat-send', …)` on any element gets the typed event. */
  // Merging into the DOM's map takes an interface; its members are exactly AgentChatEventMap's.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends AgentChatEventMap {}
}
