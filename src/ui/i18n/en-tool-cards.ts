import type { AgentChatStrings } from './en.ts';

/**
 * The English defaults of the strings only the tool call and approval cards show (a locale pack or
 * `strings` overrides them). They ship in the cards' file, not in `agent-chat.js`.
 */
export const EN_TOOL_CARD_STRINGS = {
  toolArguments: 'Arguments',
  toolResult: 'Result',
  toolProgress: 'Progress',
  toolTruncated: 'Truncated: the result is longer than shown.',
  toolEvidence: 'Checks',
  toolStatusStreamingArgs: 'Preparing',
  toolStatusPending: 'Pending',
  toolStatusAwaitingApproval: 'Waiting for approval',
  toolStatusRunning: 'Running',
  toolStatusCompleted: 'Completed',
  toolStatusFailed: 'Failed',
  toolStatusDenied: 'Denied',
  toolStatusCancelled: 'Cancelled',
  toolStatusUnknown: 'Unknown outcome',
  toolStatusExpired: 'Expired',
  approvalTitle: 'Approval needed: {name}',
  approvalExpires: 'Expires {time}',
  allow: 'Allow',
  deny: 'Deny',
  approvalSubmitting: 'Submitting…',
  proposalTitle: 'Proposed: {name}',
  apply: 'Apply',
  dismiss: 'Dismiss',
  approvalDetails: 'Details',
  approvalTool: 'Tool',
  showFullValue: 'Show all {count} characters',
};

/** The strings the cards render with: the widget's, over the cards' own English defaults. */
export type ToolCardStrings = AgentChatStrings & typeof EN_TOOL_CARD_STRINGS;

/** Fills in the cards' English defaults under the widget's resolved strings. */
export function withToolCardStrings(strings: AgentChatStrings): ToolCardStrings {
  return { ...EN_TOOL_CARD_STRINGS, ...strings };
}
