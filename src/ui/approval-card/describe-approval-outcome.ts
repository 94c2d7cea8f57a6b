import type { SnapshotInterrupt } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';

/** How an answered approval ended, as the card and its tool call's line say it. */
export function describeApprovalOutcome(interrupt: SnapshotInterrupt, strings: AgentChatStrings): string {
  if (interrupt.state === 'expired') return strings.approvalExpired;
  if (interrupt.state === 'cancelled') return strings.approvalCancelled;
  if (interrupt.proposal) return interrupt.decision === 'allow' ? strings.proposalApplied : strings.proposalDismissed;
  return interrupt.decision === 'allow' ? strings.approvalAllowed : strings.approvalDenied;
}
