import type { ApprovalDecision, ClientError, ContextRef } from '../../core/index.ts';

/** `detail` of `agent-chat-send`, dispatched just before a message is sent (or added to the active run). */
export interface AgentChatSendDetail {
  /** The text as the person typed it. */
  text: string;
  /** The references picked with `selectAttachments` that go with it (empty when none). */
  contextRefs: ContextRef[];
}

/** `detail` of `agent-chat-approve`, dispatched when the person answers an approval request. */
export interface AgentChatApproveDetail {
  /** The interrupt that was answered (`int_…`). */
  interruptId: string;
  decision: ApprovalDecision;
}

/** `detail` of `agent-chat-error`, dispatched once per new error the widget shows: that error. */
export type AgentChatErrorDetail = ClientError;

/** Every DOM event `<agent-chat>` dispatches, by name, with the type of its `detail`. */
export interface AgentChatEventDetails {
  'agent-chat-send': AgentChatSendDetail;
  'agent-chat-approve': AgentChatApproveDetail;
  'agent-chat-error': AgentChatErrorDetail;
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
  interface HTMLElementEventMap {
    'agent-chat-send': AgentChatEventMap['agent-chat-send'];
    'agent-chat-approve': AgentChatEventMap['agent-chat-approve'];
    'agent-chat-error': AgentChatEventMap['agent-chat-error'];
  }
}
